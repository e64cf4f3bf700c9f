# The wire protocol's numbers and names (PROTOCOL.md).  GENERATED from
# boardctl/hw/protocol/constants.py by `python -m boardctl.hw.protocol.constants
# sync`: do not edit (tests/hw/test_protocol_constants.py checks that it is
# in sync).  Times are in milliseconds.

PROTOCOL_VERSION = 3
SUPPORTED_VERSIONS = (3,)
CRC8_VERSION = 1
MAX_LINE = 200
CHECK_DIGITS = 8
SEQ_MODULO = 256
PALETTE_SIZE = 15
MAX_FILES = 16
MAX_RANKS = 16
MAX_LEDS = 180
BOARDS = {"hex121": 121}
BOARD_KEY = "B"
EPOCH_KEY = "E"
NONCE_KEY = "N"
EPOCH_DIGITS = 4
COUNT_DIGITS = 6
NONCE_DIGITS = 8
SPARSE_KEY = "S"
SPARSE_INDEX_DIGITS = 2

HEARTBEAT_MS = 1000
SNAP_MIN_INTERVAL_MS = 20
ACK_TIMEOUT_MS = 250
LINK_TIMEOUT_MS = 3000
HELLO_INTERVAL_MS = 1000
MAX_RETRIES = 3
REPLAY_WINDOW = 32

DEFAULT_PALETTE = (
    (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255),
    (255, 0, 255), (255, 255, 255), (255, 128, 0), (128, 0, 0), (0, 128, 0),
    (0, 0, 128), (128, 128, 0), (0, 128, 128), (128, 0, 128), (128, 128, 128),
)

COUNTER_NAMES = (
    "RX", "TX", "NOISE", "TRUNC", "LONG", "CHAR", "FORMAT", "CRC", "CMD",
    "ARG", "VER", "DUP", "LOST", "RETRY", "GIVEUP", "NAKRX", "STALE",
)

HEX_DIGITS = "0123456789ABCDEF"
KEY_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KEY_REST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
VALUE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz._:+-"
NUMBER_KEYS = ("P", "F", "R", "L")

# Why a line was dropped: each is also the name of its counter.
NOISE = "NOISE"
TRUNC = "TRUNC"
LONG = "LONG"
CHAR = "CHAR"
FORMAT = "FORMAT"
CRC = "CRC"
CMD = "CMD"
ARG = "ARG"
VER = "VER"
DROP_REASONS = ("NOISE", "TRUNC", "LONG", "CHAR", "FORMAT", "CRC", "CMD", "ARG", "VER")
NAK_REASONS = ("CRC", "CMD", "ARG", "VER")
