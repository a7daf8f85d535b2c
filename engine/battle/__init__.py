"""The Battle Phase, one module per step (docs/engine-api.md)."""
