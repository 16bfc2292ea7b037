"""Growing a trained reader wider (PyTorch: only with the `train` extra, so these skip without it)."""

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is only installed for training (pip install -e '.[train]')")

from vision.lab.training import d10_nets, nets  # noqa: E402 (after the skip: they import torch)

READERS = {  # name: (network, its default widths, wider ones, widths read off saved weights, crop side)
    "d6 faces": (nets.FaceReader, nets.FACE_WIDTHS, (32, 64, 64, 128, 192), nets.face_widths_of, 40),
    "d10 values": (d10_nets.D10Reader, d10_nets.WIDTHS, (24, 40, 80, 160, 48), d10_nets.widths_of, 64),
}


@pytest.fixture(params=READERS)
def reader(request):
    make, widths, wide, widths_of, side = READERS[request.param]
    torch.manual_seed(3)
    net = make()
    for p in net.parameters():  # weights no default initialisation would give, so a missed copy shows
        p.data.normal_(0, 0.3)
    return net.eval(), make, widths, wide, widths_of, side


def test_the_widths_are_read_back_from_saved_weights(reader):
    net, make, widths, wide, widths_of, _ = reader
    assert widths_of(net.state_dict()) == widths
    assert widths_of(make(wide).state_dict()) == wide


def test_a_grown_reader_starts_out_reading_exactly_as_the_saved_one(reader):
    net, make, _, wide, widths_of, side = reader
    grown = nets.grow_into(make(wide), net.state_dict()).eval()
    assert widths_of(grown.state_dict()) == wide
    x = torch.rand(5, 3, side, side)
    with torch.no_grad():
        assert torch.allclose(grown(x), net(x), atol=1e-5)
        assert not torch.allclose(make(wide).eval()(x), net(x), atol=1e-2)  # the check can fail


def test_the_d10_reader_loads_and_grows_from_a_saved_file(tmp_path):
    torch.manual_seed(5)
    net = d10_nets.D10Reader().eval()
    torch.save(net.state_dict(), tmp_path / "reader.pt")
    wide = (24, 40, 80, 160, 48)
    assert d10_nets.widths_of(d10_nets.load_reader(tmp_path / "reader.pt").state_dict()) == d10_nets.WIDTHS
    grown = d10_nets.load_reader(tmp_path / "reader.pt", wide).eval()
    x = torch.rand(2, 3, 64, 64)
    with torch.no_grad():
        assert torch.allclose(grown(x), net(x), atol=1e-5)
