"""The two small networks (PyTorch, training only; the appliance runs their ONNX export through cv2.dnn).

- DiceFinder: a CenterNet-style detector at stride 4: a centre heatmap, box size (log px at the
  network's scale) and sub-cell offset. It only says "a die's top is here"; reading is left to FaceReader.
- FaceReader: a classifier of one die's crop: values 1..6, "no die" (index 0) to reject phantoms, or
  "cocked" (index 7): a die that leans, so no face is up.
"""
from __future__ import annotations

from torch import nn
import torch.nn.functional as F

from .. import finder

FINDER_STRIDE = finder.STRIDE  # the network must shrink by what the readers decode
FACE_CLASSES = 8        # 0 = no die, 1..6 = value, 7 = cocked (the die under the crop does not lie flat)
COCKED = 7
FACE_WIDTHS = (16, 32, 32, 64, 96)   # channels of the face reader's five convolutions


def cbr(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def dw(cin, cout, stride=1):
    """Depthwise-separable 3x3: cheap enough for one Pi core."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DiceFinder(nn.Module):
    def __init__(self):
        super().__init__()
        self.s2 = cbr(3, 16, 2)
        self.s4 = nn.Sequential(dw(16, 32, 2), dw(32, 32))
        self.s8 = nn.Sequential(dw(32, 64, 2), dw(64, 64))
        self.s16 = nn.Sequential(dw(64, 96, 2), dw(96, 96), dw(96, 96))
        self.lat8 = nn.Conv2d(64, 48, 1)
        self.top16 = nn.Conv2d(96, 48, 1)
        self.lat4 = nn.Conv2d(32, 48, 1)
        self.mix8 = dw(48, 48)
        self.mix4 = nn.Sequential(dw(48, 48), dw(48, 32))
        self.head = nn.Conv2d(32, 5, 1)   # heat logit, log w, log h, dx, dy
        nn.init.constant_(self.head.bias[0], -2.2)

    def forward(self, x):
        x = x - 0.5
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.mix8(self.lat8(f8) + F.interpolate(self.top16(f16), scale_factor=2.0, mode="nearest"))
        p4 = self.mix4(self.lat4(f4) + F.interpolate(p8, scale_factor=2.0, mode="nearest"))
        return self.head(p4)


class FaceReader(nn.Module):
    def __init__(self, widths=FACE_WIDTHS):
        super().__init__()
        a, b, c, d, e = widths
        self.body = nn.Sequential(
            cbr(3, a), nn.MaxPool2d(2),                        # 20
            cbr(a, b), cbr(b, c), nn.MaxPool2d(2),             # 10
            cbr(c, d), nn.MaxPool2d(2),                        # 5
            cbr(d, e), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Dropout(0.2), nn.Linear(e, FACE_CLASSES))

    def forward(self, x):
        return self.body(x - 0.5)


def face_widths_of(state: dict) -> tuple[int, ...]:
    """The widths a saved face reader was built with, read off its weights' shapes."""
    return tuple(w.shape[0] for w in state.values() if w.ndim == 4)


def grow_into(net: nn.Module, state: dict) -> nn.Module:
    """`net` holding saved weights of a net of the same design that is no larger. The saved channels and
    classes come first; new channels start with zero weight into the next layer, so `net` starts out
    computing what the saved net did, while new classes (the face reader's "cocked") keep fresh weights."""
    grown = net.state_dict()
    for key, old in state.items():
        new = grown[key]
        new[tuple(slice(n) for n in old.shape)] = old
        if new.ndim >= 2 and new.shape[1] > old.shape[1]:   # flattened maps keep channel-major order
            new[:, old.shape[1]:] = 0
    net.load_state_dict(grown)
    return net
