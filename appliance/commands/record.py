"""`dicetable record OUT_DIR [--profile P] [--camera pi|usb] [--seconds S]`: save the camera stream and
label every rest the player confirms (OK) with the values read; BACK skips a rest; long NEXT/PREV
changes the value of the die under the cursor (NEXT/PREV moves it), as on the table's review screen."""
from __future__ import annotations

HELP = "save the camera stream as a recorded-throw folder, labeled with the readings the player confirms"


def configure(parser) -> None:
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder to create (frames/, labels.json, calibration)")
    parser.add_argument("--profile", default=None, help="tray profile (default: the settings' profile)")
    parser.add_argument("--camera", choices=["pi", "usb"], default="pi", help="the Pi camera or a USB camera")
    parser.add_argument("--device", default="0", help="USB camera number or path")
    parser.add_argument("--keys", action="store_true", help="keyboard instead of the GPIO buttons")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: until Ctrl-C)")


def _panel(args):
    if args.keys:
        from hardware.buttons import KeyboardPanel
        return KeyboardPanel()
    from appliance.settings import load_settings
    from hardware.buttons import GpioPanel
    settings, _ = load_settings()
    return GpioPanel(settings.buttons.pins)


def run(args) -> int:
    import time

    import cv2

    import vision
    from appliance.recording import Recorder
    from calibration.profile import ProfileError, load_profile
    from hardware.frame_source import small_grey

    cv2.setNumThreads(1)
    profile = None
    if args.profile:
        try:
            profile = load_profile(args.profile)
        except ProfileError as error:
            print(error)
            return 2
    calibration = profile.to_tray_calibration() if profile else None
    if args.camera == "pi":
        from hardware.frames import PiCamera
        source = PiCamera(size=profile.frame_size if profile else (1280, 720), **(profile.camera_controls() if profile else {}))
    else:
        from hardware.frames import OpenCVCamera
        source = OpenCVCamera(int(args.device) if args.device.isdigit() else args.device)
    panel = _panel(args)
    detector = vision.RestDetector(small_grey(calibration.empty, (320, 180)) if calibration is not None else None)
    recorder = Recorder(args.out_dir, profile.path if profile else None)
    pending = None   # (frame index, reading, values, cursor) waiting for OK/BACK
    start = time.monotonic()
    try:
        while not args.seconds or time.monotonic() - start < args.seconds:
            frame = source.read()
            if frame is None:
                time.sleep(0.05)
                continue
            index = recorder.frame(frame.image, frame.t)
            state = detector.update(frame.small, frame.image)
            if state.read_now:
                reading = vision.read(state.frame, calibration)
                pending = [index, reading.dice, [d.value or 0 for d in reading.dice], 0]
                print(f"frame {index}: read {pending[2]}; OK confirms, BACK skips")
            for press in panel.poll():
                recorder.press(press)
                pending = _on_press(press, pending, recorder)
    finally:
        recorder.close()
        source.close()
        panel.close()
    print(f"recorded {len(recorder.frames)} frames, {len(recorder.images)} confirmed readings in {args.out_dir}")
    return 0


def _on_press(press, pending, recorder):
    if pending is None:
        return None
    index, dice, values, cursor = pending
    if press.button == "OK":
        recorder.confirmed(index, dice, values)
        print(f"labeled frame {index}: {values}")
        return None
    if press.button == "BACK":
        return None
    if press.button in ("NEXT", "PREV") and dice:
        step = 1 if press.button == "NEXT" else -1
        if press.long:
            faces = 10 if dice[cursor].kind == "d10" else 6
            values[cursor] = (values[cursor] - 1 + step) % faces + 1
        else:
            cursor = (cursor + step) % len(dice)
    return [index, dice, values, cursor]
