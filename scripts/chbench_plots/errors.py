"""What goes wrong, and the exit status it gives the command."""

EXIT_BAD_INPUT = 2  # unusable input or output folder; nothing is written
EXIT_NO_MATPLOTLIB = 1
EXIT_WRITE_FAILED = 1  # writing failed midway; the folder is left as it was


class InputError(Exception):
    """The input cannot be used; the message is one line for the user."""
