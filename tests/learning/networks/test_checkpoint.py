"""Checkpoints: a saved network comes back with the same outputs and extra data; another game,
board, encoder version or architecture is refused in one line; so is a missing, foreign,
truncated (cut at many points of a real file) or corrupt (bytes flipped) file; a failed write
leaves the earlier checkpoint intact and no temporary file."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
import torch

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.gomoku import Gomoku
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe
from searchlab.learning.networks import checkpoint as checkpoint_module
from searchlab.learning.networks.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoders import Connect4Encoder, encoder_for
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

SMALL = NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16)


def connect4_net(seed: int = 0) -> PolicyValueNet:
    encoder = encoder_for(Connect4())
    net = PolicyValueNet(encoder.shape, encoder.num_actions, SMALL, seed=seed)
    # move the batch-norm statistics away from their defaults, so that they are checked too
    net.train()
    with torch.no_grad():
        net(torch.randn(8, *encoder.shape, generator=torch.Generator().manual_seed(seed)))
    return net.eval()


def outputs(net: PolicyValueNet, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(5, *net.shape, generator=torch.Generator().manual_seed(seed))
    with torch.inference_mode():
        return net.eval()(x)


@pytest.fixture
def saved(tmp_path):
    net = connect4_net()
    path = save_checkpoint(tmp_path / "c4.ckpt", net, encoder_for(Connect4()))
    return path, net


def one_line(error: pytest.ExceptionInfo) -> str:
    message = str(error.value)
    assert "\n" not in message and message
    return message


def test_a_checkpoint_round_trips_weights_statistics_and_extra(tmp_path) -> None:
    net = connect4_net()
    optimiser = torch.optim.Adam(net.parameters(), lr=0.01)
    net.train()
    logits, value = net(torch.randn(4, 4, 6, 7))
    (logits.sum() + value.sum()).backward()
    optimiser.step()
    net.eval()
    extra = {"generation": 7, "losses": [0.5, 0.25], "optimiser": optimiser.state_dict()}
    path = save_checkpoint(tmp_path / "c4.ckpt", net, encoder_for(Connect4()), extra=extra)
    loaded = load_checkpoint(path, Connect4())
    assert loaded.game_name == "connect4" and loaded.game_params == {}
    assert loaded.config == SMALL and not loaded.net.training
    assert isinstance(loaded.encoder, Connect4Encoder)
    for mine, theirs in zip(outputs(net), outputs(loaded.net), strict=True):
        assert torch.equal(mine, theirs)
    assert loaded.extra["generation"] == 7 and loaded.extra["losses"] == [0.5, 0.25]
    again = torch.optim.Adam(loaded.net.parameters(), lr=0.01)
    again.load_state_dict(loaded.extra["optimiser"])
    first = next(iter(optimiser.state_dict()["state"].values()))["exp_avg"]
    assert torch.equal(next(iter(again.state_dict()["state"].values()))["exp_avg"], first)
    # without a game, the recorded one is rebuilt from the registry
    assert load_checkpoint(path).encoder.shape == (4, 6, 7)


def test_the_board_size_is_part_of_the_game(tmp_path) -> None:
    encoder = encoder_for(Gomoku(size=9))
    net = PolicyValueNet(encoder.shape, encoder.num_actions, SMALL, seed=0)
    path = save_checkpoint(tmp_path / "g9.ckpt", net, encoder)
    assert load_checkpoint(path).encoder.shape == (3, 9, 9)
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, Gomoku(size=15))
    assert one_line(error).endswith("is for gomoku with size=9, not size=15")
    mnk = encoder_for(MNKGame(4, 4, 3))
    path = save_checkpoint(tmp_path / "mnk.ckpt", PolicyValueNet(mnk.shape, 16, SMALL), mnk)
    with pytest.raises(CheckpointError, match=r"with m=4 n=4 k=3, not m=4 n=4 k=4$"):
        load_checkpoint(path, MNKGame(4, 4, 4))


def test_another_game_is_refused_in_one_line(saved) -> None:
    path, _ = saved
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, TicTacToe())
    assert one_line(error) == f"checkpoint {path} is for connect4, not tictactoe"
    with pytest.raises(CheckpointError, match=r"is for connect4, not tictactoe$"):
        load_checkpoint(path, encoder=encoder_for(TicTacToe()))
    with pytest.raises(InvalidParameterError, match="pass the game, not a state"):
        load_checkpoint(path, Connect4().initial_state())


def test_another_encoder_version_is_refused(saved) -> None:
    path, _ = saved

    class Newer(Connect4Encoder):
        version = 2

    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, encoder=Newer())
    assert "written for version 1 of the connect4 encoder; this one is version 2" in one_line(error)


def test_the_input_features_are_recorded_and_loaded_with(tmp_path, saved) -> None:
    """A network of Connect Four's ``threats`` planes loads with them from the game alone (and
    gives the outputs it was saved with); given the plain encoder it is refused in one line,
    and a plain network given the threats encoder too."""
    threats = Connect4Encoder(features="threats")
    net = PolicyValueNet(threats.shape, 7, SMALL, seed=2).eval()
    path = save_checkpoint(tmp_path / "threats.ckpt", net, threats)
    loaded = load_checkpoint(path, Connect4())
    assert loaded.encoder.features == "threats" and loaded.encoder.shape == (8, 6, 7)
    planes = torch.from_numpy(threats.encode_batch([Connect4().initial_state()]))
    with torch.inference_mode():
        for got, want in zip(loaded.net(planes), net(planes), strict=True):
            torch.testing.assert_close(got, want)
    assert load_checkpoint(saved[0], Connect4()).encoder.features == "stones"
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, encoder=Connect4Encoder())
    assert one_line(error).endswith("reads the 'threats' features of the connect4 encoder, not "
                                    "'stones'")  # fmt: skip
    with pytest.raises(CheckpointError, match="reads the 'stones' features"):
        load_checkpoint(saved[0], encoder=threats)


def test_another_architecture_is_refused(saved) -> None:
    path, _ = saved
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, Connect4(), config=NetworkConfig(kind="resnet", blocks=4))
    assert one_line(error).endswith(
        "holds a resnet 1x8 (hidden 16) network, not the resnet 4x32 (hidden 64) asked for"
    )
    assert load_checkpoint(path, Connect4(), config=SMALL).config == SMALL


def rewrite(path, change) -> None:
    """Rewrite ``path`` with its record changed by ``change`` (a valid checksum)."""
    data = path.read_bytes()
    body = data[data.index(b"\n", len(b"searchlab-checkpoint\n")) + 1 :]
    payload = torch.load(io.BytesIO(body), weights_only=True)
    change(payload)
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    import hashlib

    body = buffer.getvalue()
    header = f"format 1 sha256 {hashlib.sha256(body).hexdigest()} bytes {len(body)}\n"
    path.write_bytes(b"searchlab-checkpoint\n" + header.encode() + body)


def test_weights_that_do_not_fit_their_record_are_refused(saved) -> None:
    path, _ = saved
    rewrite(path, lambda payload: payload["network"].update(blocks=2))
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(path, Connect4())
    assert "its weights do not fit its resnet 2x8 (hidden 16) network (" in one_line(error)


def test_a_newer_format_and_an_impossible_record_are_refused(saved) -> None:
    path, _ = saved
    rewrite(path, lambda payload: payload["network"].update(blocks=-3))
    with pytest.raises(CheckpointError, match="records an impossible network: network: blocks"):
        load_checkpoint(path, Connect4())
    data = path.read_bytes().replace(b"format 1 ", b"format 9 ", 1)
    path.write_bytes(data)
    with pytest.raises(CheckpointError, match="has format 9; this searchlab reads format 1"):
        load_checkpoint(path, Connect4())


def test_every_truncation_of_a_real_file_is_refused_in_one_line(saved) -> None:
    path, _ = saved
    data = path.read_bytes()
    cuts = sorted({0, 5, 21, 40, 60, 100, len(data) // 2, len(data) - 1, *range(0, len(data), 997)})
    for cut in cuts:
        path.write_bytes(data[:cut])
        with pytest.raises(CheckpointError) as error:
            load_checkpoint(path, Connect4())
        message = one_line(error)
        assert "truncated" in message or (cut == 0 and "not a searchlab checkpoint" in message), (
            cut,
            message,
        )


def test_flipped_bytes_anywhere_are_refused_in_one_line(saved) -> None:
    path, _ = saved
    data = path.read_bytes()
    rng = np.random.default_rng(0)
    header_end = data.index(b"\n", 21) + 1
    places = [30, header_end + 1, len(data) - 1, *rng.integers(header_end, len(data), 20)]
    for place in places:
        damaged = bytearray(data)
        damaged[place] ^= 0x10
        path.write_bytes(bytes(damaged))
        with pytest.raises(CheckpointError) as error:
            load_checkpoint(path, Connect4())
        assert "corrupt" in one_line(error), (place, str(error.value))
    path.write_bytes(data + b"\0")
    with pytest.raises(CheckpointError, match="is corrupt: its checksum does not match"):
        load_checkpoint(path, Connect4())


def test_missing_and_foreign_files_are_refused_in_one_line(tmp_path) -> None:
    with pytest.raises(CheckpointError, match=r"^no checkpoint at .*nothing\.ckpt: no such file$"):
        load_checkpoint(tmp_path / "nothing.ckpt")
    with pytest.raises(CheckpointError, match=r"is a directory; expected a checkpoint file$"):
        load_checkpoint(tmp_path)
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises(CheckpointError, match=r"notes\.txt is not a searchlab checkpoint"):
        load_checkpoint(tmp_path / "notes.txt")
    torch.save(connect4_net().state_dict(), tmp_path / "plain.pt")
    with pytest.raises(CheckpointError, match=r"plain\.pt is a plain PyTorch file"):
        load_checkpoint(tmp_path / "plain.pt")


def test_a_failed_write_keeps_the_earlier_checkpoint_and_leaves_no_temporary(
    saved, monkeypatch
) -> None:
    path, net = saved
    before = path.read_bytes()

    def broken_fsync(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(checkpoint_module.os, "fsync", broken_fsync)
    with pytest.raises(CheckpointError) as error:
        save_checkpoint(path, connect4_net(seed=5), encoder_for(Connect4()))
    assert one_line(error) == f"cannot write checkpoint {path}: No space left on device"
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(os.listdir(path.parent)) == [path.name]
    with pytest.raises(CheckpointError, match=r"cannot write checkpoint .*No such file"):
        save_checkpoint(path.parent / "missing" / "x.ckpt", net, encoder_for(Connect4()))


def test_save_refuses_what_it_cannot_keep(tmp_path) -> None:
    net = connect4_net()
    with pytest.raises(InvalidParameterError, match=r"extra\['rng'\] is a Generator"):
        save_checkpoint(
            tmp_path / "x.ckpt",
            net,
            encoder_for(Connect4()),
            extra={"rng": np.random.default_rng()},
        )
    with pytest.raises(InvalidParameterError, match=r"extra\['a'\]\[1\] is a ndarray"):
        save_checkpoint(
            tmp_path / "x.ckpt", net, encoder_for(Connect4()), extra={"a": [1, np.zeros(2)]}
        )
    with pytest.raises(InvalidParameterError, match="the tictactoe encoder gives"):
        save_checkpoint(tmp_path / "x.ckpt", net, encoder_for(TicTacToe()))
    assert not any(tmp_path.iterdir())


def test_a_gpu_that_is_not_there_is_one_line(saved) -> None:
    path, _ = saved
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(InvalidParameterError) as error:
        load_checkpoint(path, Connect4(), device="cuda")
    assert one_line(error).startswith("device 'cuda': this machine has no CUDA GPU")
