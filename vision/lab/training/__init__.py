"""Training the dice models (needs the `train` extra: torch, onnx). Not imported by the appliance."""
