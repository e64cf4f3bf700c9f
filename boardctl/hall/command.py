"""``boardctl hall``: a round served from the broker (``--round``), this
board's broadcast key (``key``), or the older page of several boards' feeds
(a HALL.toml, :mod:`boardctl.web.hall`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import BoardctlError
from ..remote.keys import fingerprint
from ..remote.transport import BrokerSettings, MqttTransport
from ..web.server import ServerThread, serve_until_signalled
from .boardkey import board_key, key_path
from .round import load_round
from .service import Hall, make_round_app

# Messages the broker may deliver between two of the hall's turns: a whole
# round's retained states at once, with room to spare.
WAITING = 4096


class HallUsageError(BoardctlError, ValueError):
    """The hall cannot start as asked; the message says why."""


def key_command(folder: Path) -> int:
    """Print this board's broadcast key (made on first use): what the round
    file names it by."""
    key = board_key(folder)
    print(f"fingerprint  {fingerprint(key.public)}")
    print(f"public key   {key.public}")
    print(f"kept in      {key_path(folder)}")
    return 0


def round_command(
    path: Path, broker: BrokerSettings, *, port: int, bind: str, pgn: Path | None
) -> int:
    """Serve the round at ``path`` from ``broker`` until SIGINT or SIGTERM,
    its PGN written to ``pgn`` (default: beside the round file).

    :raises RoundError: HallUsageError: WebError:
    """
    rnd = load_round(path)
    if not broker.url:
        raise HallUsageError(
            "the hall reads the boards from a broker: set [hall] broker (and its login) "
            "in the configuration, --config PATH"
        )
    out = pgn or path.with_suffix(".pgn")
    transport = MqttTransport(broker, waiting=WAITING)
    try:
        service = Hall(rnd, transport, out)
        server = ServerThread(lambda: make_round_app(service), host=bind, port=port)
        what = f"round {rnd.number} of {rnd.event}, {len(rnd.seats)} boards from {broker.url}"
        serve_until_signalled(server, lambda url: f"{what} on {url}; the PGN in {out}")
    finally:
        transport.close()
    return 0
