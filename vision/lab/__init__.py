"""Vision's lab: what makes and measures the readers, never run at the table (the appliance's commands use it).

    render/      the dice drawer: a 3D tray renderer (d6, d10, a hand) and dice drawn flat (render/flat.py)
    training/    training the six- and ten-sided dice models (d10_*.py: the ten-sided ones; needs torch)
    scoring.py   readings scored against labeled photo sets; splits.py, the held-out split
    night.py     a game night of learnt dice on a labeled set (`dicetable evaluate --adapt`)
    bench.py     the timings of `dicetable bench vision`

The lab imports the runtime (vision.*); the runtime never imports the lab.
"""
