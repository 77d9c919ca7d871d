"""How the Discord layer reaches Discord: interaction-token requests, the carrier, pacing, forwarding."""
