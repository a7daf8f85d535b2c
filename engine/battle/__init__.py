"""The Battle Phase, one module per step (DESIGN.md)."""
