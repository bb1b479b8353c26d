"""Shipped boards, decks and presets (package data)."""
