"""The terminal app: the menu, the game screens, LAN and SSH play (Textual)."""
