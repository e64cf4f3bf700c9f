"""What the daemon is lent beside the board, as the configuration asks: the
spectator page's server (and remote play's link in it), the board's voice,
the reviews of ended games.  :func:`lent` starts them for
:func:`~boardctl.daemon.wiring.build`."""

from __future__ import annotations

import logging
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config
from ..engine import Limits
from ..remote.desk import Desk
from ..remote.journal import JOURNAL_NAME
from ..review.background import Reviewer
from ..rules import BLACK, WHITE
from ..ui.state import welcome_words
from ..voice.engines import Espeak, SpeechError, VoiceSettings
from ..voice.speaker import Speaker
from .boards import StartError
from .parts import Services
from .restart import RESTART_GAP, under_systemd

if TYPE_CHECKING:
    from ..remote.link import LinkSettings
    from ..settings import SettingsFile
    from ..web.server import WebServer
    from ..web.snapshot import Hub

log = logging.getLogger("boardctl")


@dataclass(frozen=True)
class WebParts:
    """The web page: the hub the daemon publishes to, the page's address, its
    settings' side of the configuration file (None without one), whether it
    offers actions (a PIN is set), and its server, which listens once
    :meth:`listen` is called."""

    hub: Hub
    url: str
    settings: SettingsFile | None
    actions: bool
    server: WebServer

    def listen(self, stack: ExitStack) -> None:
        """Serve the page until ``stack`` closes.

        :raises WebError: when the port cannot be listened on.
        """
        self.server.start()
        stack.callback(self.server.stop)
        log.info(
            "web page on %s (%s)",
            self.url,
            "actions and settings need the PIN" if self.actions else "view only: no PIN set",
        )


def link_settings(config: Config) -> LinkSettings:
    """What a remote game this board offers is played with, and its broker."""
    from ..remote.link import LinkSettings
    from ..remote.transport import BrokerSettings

    remote = config.remote
    broker = None
    if remote.broker:
        broker = BrokerSettings(remote.broker, remote.username, remote.password, remote.ca_file)
    return LinkSettings(
        colour=WHITE if config.game.human == "white" else BLACK,
        variant=config.game.variant,
        clock=config.clock_seconds,
        name=config.remote.name,
        broker=broker,
        lan_port=remote.lan_port,
    )


def make_web(config: Config, db_path: Path, remote: Desk | None = None) -> WebParts:
    """The spectator page's server, not yet listening.  With a configuration
    file, its settings page writes to that file; with ``remote``, the link of
    remote play runs there too (its journal beside the game store).

    :raises StartError: without aiohttp.
    """
    from ..web.snapshot import Hub

    try:
        from ..settings import SettingsFile
        from ..web.server import WebServer
    except ImportError:
        raise StartError("the web page needs aiohttp: pip install 'boardctl[web]'") from None
    hub = Hub()  # the daemon publishes here; the server only reads
    link = None
    if remote is not None:
        try:
            from ..remote.link import Link
        except ImportError:
            raise StartError(
                "remote play needs paho-mqtt and cryptography: pip install 'boardctl[remote]'"
            ) from None
        link = Link(remote, db_path.with_name(JOURNAL_NAME), link_settings(config))
    settings = SettingsFile(Path(config.source)) if config.from_file else None
    # Under systemd a restart counts toward the unit's start limit (see RESTART_GAP).
    restart_from = time.monotonic() + RESTART_GAP if under_systemd() else 0.0
    server = WebServer(
        hub,
        host=config.web.bind,
        port=config.web.port,
        pin=config.web.pin,
        db_path=db_path,
        link=link,
        settings=settings,
        restart_from=restart_from,
    )
    return WebParts(hub, server.url, settings, bool(config.web.pin), server)


def lent(
    config: Config,
    db_path: Path,
    stack: ExitStack,
    given: Services,
    first_start: bool,
) -> tuple[Services, str | None, WebParts | None]:
    """What the board is lent (see :class:`~.parts.Services`): what the
    caller ``given`` it (the engines always: the opponent, and the adviser
    that starts one), else what the configuration turns on, each closed by
    ``stack``: the remote link's desk, the page (not yet listening: the
    caller starts it once the daemon holds its game), the voice, the reviews;
    on the first start, the words that say where the settings page is."""
    remote, web, welcome = given.remote, None, None
    if config.game.mode == "remote" and remote is None:
        if not config.web.enabled:
            raise StartError(
                "a remote game is played through the web server: set [web] enabled = true "
                "(and a pin, to offer or join a game from the page)"
            )
        remote = Desk()
    if config.web.enabled and given.web is None:
        web = make_web(config, db_path, remote)
        if first_start:
            welcome = welcome_words(web.url, config.web.pin)
    speaker = given.speaker
    if speaker is None and config.speech.enabled:
        speaker = make_speaker(config, stack)
    reviewer = given.reviewer
    # At a game's end, or asked for from the page.
    if reviewer is None and (config.review.at_end or config.web.enabled):
        reviewer = Reviewer(db_path, Limits(movetime=config.review.movetime))
        stack.callback(reviewer.close)
    hub = given.web or (web.hub if web is not None else None)
    if config.hall.broker and config.hall.event and config.hall.board:
        from ..web.snapshot import Hub

        hub = hub or Hub()  # the daemon publishes its game there, page or no page
        start_broadcast(config, hub, db_path.parent, stack)
    elif config.hall.broker:
        log.warning("[hall] broker is set, but not event and board: this board broadcasts nothing")
    services = Services(given.opponent, given.adviser, hub, speaker, reviewer, remote)
    return services, welcome, web


def start_broadcast(config: Config, hub: Hub, folder: Path, stack: ExitStack) -> None:
    """The board's game to the tournament's broker ([hall], boardctl.hall.broadcast),
    closed by ``stack``; a key that cannot be read or made is logged, and the
    board plays on without it.

    :raises StartError: without paho-mqtt and cryptography.
    """
    try:
        from ..hall.boardkey import BoardKeyError, board_key
        from ..hall.broadcast import Broadcast, Place, Will
        from ..remote.transport import BrokerSettings, MqttTransport
    except ImportError:
        raise StartError(
            "[hall] broker: the broadcast needs paho-mqtt and cryptography: "
            "pip install 'boardctl[remote]'"
        ) from None
    hall = config.hall
    try:
        key = board_key(folder)
    except BoardKeyError as exc:
        log.error("[hall] no broadcast: %s", exc)
        return
    settings = BrokerSettings(hall.broker, hall.username, hall.password, hall.ca_file)

    def connect(will: Will) -> MqttTransport:
        return MqttTransport(settings, will=will)

    broadcast = Broadcast(hub, key, Place(hall.event, hall.board, hall.round, hall.number), connect)
    stack.callback(broadcast.close)
    log.info("hall: broadcasting as %s of %s through %s", hall.board, hall.event, hall.broker)


def make_speaker(config: Config, stack: ExitStack) -> Speaker | None:
    """The board's voice as configured, or None (logged once) where the
    speech engine cannot run: the game goes on in silence."""
    speech = config.speech
    try:
        engine = Espeak(VoiceSettings(speech.voice, speech.rate, speech.volume))
    except SpeechError as exc:
        log.warning("[speech] %s: the board stays silent", exc)
        return None
    speaker = Speaker(engine)
    stack.callback(speaker.close)
    return speaker
