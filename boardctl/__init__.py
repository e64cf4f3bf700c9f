"""boardctl: runs an 80-square electronic board for Falcon Chess on a Raspberry Pi."""

__version__ = "0.1.0"
