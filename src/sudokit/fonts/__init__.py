"""Fonts shipped for the PDF pictures (DejaVu Sans; see LICENSE here)."""
