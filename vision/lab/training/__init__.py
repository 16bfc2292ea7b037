"""Training the dice models of both kinds (needs the `train` extra: torch, onnx); d10_*.py train the ten-sided
ones on the six-sided ones' building blocks (data, nets, train). Not imported by the appliance."""
