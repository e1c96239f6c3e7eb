"""LAN play in the TUI: the host and lobby screens, the hosted table, the LAN commands."""
