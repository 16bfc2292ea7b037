"""Everything that touches the Raspberry Pi, behind small interfaces with fakes.

hardware.frames   Pi camera (picamera2), USB camera (OpenCV), replay of recorded throws
hardware.buttons  GPIO push buttons (gpiozero), keyboard, touch, scripted presses
hardware.display  opening the display with pygame (kiosk / window / dummy), its events and clock
hardware.probe    what this machine has, for `dicetable doctor`

No other package imports picamera2 or gpiozero or sets SDL variables; hardware imports neither appliance
nor vision, and takes plain parameters (the appliance reads the settings and passes them in).
"""
