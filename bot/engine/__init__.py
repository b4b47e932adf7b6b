"""Pure game rules: no IO, no Discord, no database, no images. See core.py for the protocol."""
