"""Errors of the hardware layer: one root, each also the matching built-in."""


class HardwareError(Exception):
    """Root of every error raised by `hw`."""


class LinkError(HardwareError, OSError):
    """A byte link could not be opened, or was lost (reader unplugged, pty closed)."""


class ConfigError(HardwareError, ValueError):
    """A table profile or deck registry is wrong; the message says where and how."""
