"""The one exception type a user sees: its message names the file, line or field and the fix."""


class XelError(Exception):
    """A problem with the user's input or setup, reported without a traceback."""
