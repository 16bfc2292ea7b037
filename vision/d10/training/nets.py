"""The d10 value reader (PyTorch, training only; the appliance runs its ONNX export through cv2.dnn).

Classes: 0 = no die (a phantom find), 1..10 = a d10's value (printed 0 = 10), 11 = a six-sided die
(reported as kind "d6", never read as a d10). The head keeps a 4x4 map rather than pooling it away:
where a numeral sits (centre = upper face, edge = a neighbour seen at an angle) is the point.
"""
from __future__ import annotations

from torch import nn

from ...training.nets import cbr, dw

CLASSES = 12
D6_CLASS = 11


class D10Reader(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16), nn.MaxPool2d(2),                  # 32: full-resolution first layer, for the 6/9 mark
            dw(16, 32), nn.MaxPool2d(2),                  # 16: depthwise-separable from here, cheap on a Pi core
            dw(32, 64), dw(64, 64), nn.MaxPool2d(2),      # 8
            dw(64, 128), dw(128, 128), nn.MaxPool2d(2),   # 4
            nn.Conv2d(128, 32, 1), nn.ReLU(inplace=True), nn.Flatten(),
            nn.Dropout(0.2), nn.Linear(32 * 16, CLASSES))

    def forward(self, x):
        return self.body(x - 0.5)
