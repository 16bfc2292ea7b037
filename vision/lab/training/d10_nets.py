"""The d10 value reader (PyTorch, training only; the appliance runs its ONNX export through cv2.dnn).

Classes: 0 = no die (a phantom find), 1..10 = a d10's value (printed 0 = 10), 11 = a six-sided die
(reported as kind "d6", never read as a d10). The head keeps a 4x4 map rather than pooling it away:
where a numeral sits (centre = upper face, edge = a neighbour seen at an angle) is the point.
"""

from __future__ import annotations

import torch
from torch import nn

from .nets import cbr, dw, grow_into

CLASSES = 12
D6_CLASS = 11
WIDTHS = (16, 32, 64, 128, 32)  # channels of the stages at 32, 16, 8, 4 px and of the head's 4x4 map


class D10Reader(nn.Module):
    def __init__(self, widths=WIDTHS):
        super().__init__()
        a, b, c, d, e = widths
        self.body = nn.Sequential(
            cbr(3, a),
            nn.MaxPool2d(2),  # 32: full-resolution first layer, for the 6/9 mark
            dw(a, b),
            nn.MaxPool2d(2),  # 16: depthwise-separable from here, cheap on a Pi core
            dw(b, c),
            dw(c, c),
            nn.MaxPool2d(2),  # 8
            dw(c, d),
            dw(d, d),
            nn.MaxPool2d(2),  # 4
            nn.Conv2d(d, e, 1),
            nn.ReLU(inplace=True),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(e * 16, CLASSES),
        )

    def forward(self, x):
        return self.body(x - 0.5)


def widths_of(state: dict) -> tuple[int, ...]:
    """The widths a saved reader was built with, read off its weights' shapes."""
    # the full convolutions, in order: the first 3x3, the five dw blocks' 1x1s, the head's 1x1
    convs = [w for w in state.values() if w.ndim == 4 and w.shape[1] > 1]
    return tuple(convs[i].shape[0] for i in (0, 1, 2, 4, 6))


def load_reader(path, widths=None) -> D10Reader:
    """A reader from saved weights; with wider `widths`, the saved reader's channels come first and the new
    ones start with zero weight into the next layer, so the wider reader starts out reading exactly as it did."""
    state = torch.load(path)
    return grow_into(D10Reader(widths or widths_of(state)), state)
