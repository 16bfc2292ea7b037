"""Tray profiles and the wizard that makes them.

calibration.profile   the TOML profile (+ empty-tray PNG): load_profile, save_profile, ProfileError
calibration.find      OpenCV: find_tray (tray + keep zone), measure_die_size
calibration.wizard    the step machine fed frames and presses, giving a WizardScreen
                      (drawn by appliance/screens/wizard.py)

A drawn tray with known geometry, for the tests and `dicetable calibrate --source synthetic`: vision.lab.render.tray.
"""
