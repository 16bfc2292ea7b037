"""The d10 reader's training network (PyTorch: only with the `train` extra, so these skip without it)."""
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is only installed for training (pip install -e '.[train]')")

from vision.d10.training.nets import WIDTHS, D10Reader, load_reader, widths_of  # noqa: E402

WIDE = (24, 40, 80, 160, 48)


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, D10Reader]:
    torch.manual_seed(3)
    net = D10Reader()
    for p in net.parameters():   # weights no default initialisation would give, so a missed copy shows
        p.data.normal_(0, 0.3)
    path = tmp_path / "reader.pt"
    torch.save(net.state_dict(), path)
    return path, net.eval()


def test_the_widths_are_read_back_from_saved_weights(saved):
    path, _ = saved
    assert widths_of(torch.load(path)) == WIDTHS
    assert widths_of(D10Reader(WIDE).state_dict()) == WIDE


def test_a_grown_reader_starts_out_reading_exactly_as_the_saved_one(saved):
    path, net = saved
    grown = load_reader(path, WIDE).eval()
    assert widths_of(grown.state_dict()) == WIDE
    x = torch.rand(5, 3, 64, 64)
    with torch.no_grad():
        assert torch.allclose(grown(x), net(x), atol=1e-5)
        assert not torch.allclose(D10Reader(WIDE).eval()(x), net(x), atol=1e-2)   # the check can fail
