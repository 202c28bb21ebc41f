"""The camera: the annotated video (MJPEG), snapshots for the review, and the table layout.

``start_camera`` runs the live table (:mod:`vision.table.live`) in a thread beside the server; it
records into the same session as the page's taps, under the same lock.
"""

from __future__ import annotations

import threading
import time
import traceback

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    request,
    send_from_directory,
)

from engine.session import Session
from vision.table.layout import LayoutError, MatFinder, TableLayout, mat_layout
from vision.table.live import LiveTable, run
from vision.table.sources import Resilient, open_source
from vision.table.watch import Watcher

from .guard import json_body

camera = Blueprint("camera", __name__)


def _service():
    return current_app.extensions["table"]


NO_PICTURE_END = 5.0  # seconds a stream waits for a first picture before it ends (the page asks again)
RESEND = 2.0  # seconds after which the last picture is sent again while no new one comes


@camera.get("/camera.mjpg")
def mjpeg():
    """The annotated video. A stream writes at least every RESEND seconds, so a page that has gone is
    noticed and its thread ends; with no picture at all it ends after NO_PICTURE_END."""
    s = _service()
    once = request.args.get("once") == "1"
    if s.camera_jpeg is None and once:
        return jsonify(error="no camera picture yet"), 404

    def frames():
        last, sent_at, start = None, 0.0, time.monotonic()
        while True:
            jpeg, now = s.camera_jpeg, time.monotonic()
            if jpeg is None and now - start > NO_PICTURE_END:
                return
            if jpeg is not None and (jpeg is not last or now - sent_at > RESEND):
                last, sent_at = jpeg, now
                yield b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + \
                    b"\r\n\r\n" + jpeg + b"\r\n"
                if once:
                    return
            time.sleep(0.05)

    return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")


@camera.get("/camera/frame.jpg")
def frame():
    jpeg = _service().camera_raw
    if jpeg is None:
        return jsonify(error="no camera picture yet"), 404
    return Response(jpeg, mimetype="image/jpeg")


@camera.get("/snapshots/<name>")
def snapshot(name: str):
    folder = _service().snapshots
    if folder is None or not name.endswith(".jpg") or "/" in name or ".." in name:
        abort(404)
    return send_from_directory(folder, name)


@camera.get("/camera/asks/<int:ask_id>.jpg")
def ask_crop(ask_id: int):
    """The card the camera asks about, cut from the frame it was asked on (a margin round it)."""
    import cv2  # noqa: PLC0415  (OpenCV only where a picture is cut)

    s = _service()
    with s.lock:
        ask = s.watcher.asks.get(ask_id) if s.watcher is not None else None
    if ask is None or not ask.snapshot or s.snapshots is None:
        return jsonify(error=f"no picture for question {ask_id}"), 404
    img = cv2.imread(str(s.snapshots / ask.snapshot))
    if img is None:
        return jsonify(error=f"the picture of question {ask_id} is gone"), 404
    x1, y1, x2, y2 = ask.box
    m = 0.25 * max(x2 - x1, y2 - y1)
    h, w = img.shape[:2]
    crop = img[max(0, int(y1 - m)):min(h, int(y2 + m)), max(0, int(x1 - m)):min(w, int(x2 + m))]
    if crop.size == 0:  # no box (an upcard looked for without zones), or one off the picture: the whole frame
        crop = img
    ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Response(buf.tobytes(), mimetype="image/jpeg")


@camera.post("/api/layout")
def save_layout():
    """Zones drawn on the calibration screen, or ``{"mat": N}`` to use the printed mat for N seats."""
    s = _service()
    refused = current_app.extensions["pin_guard"].refusal(s)
    if refused:
        return refused
    body, refused = json_body()
    if refused:
        return refused
    try:
        if "mat" in body:
            players = body["mat"]
            if not isinstance(players, int) or not 2 <= players <= 7:
                raise LayoutError("'mat' must be the number of seats on the printed mat (2 to 7)")
            layout = mat_layout(players)
        else:
            layout = TableLayout.from_dict(body)
    except LayoutError as exc:
        return jsonify(error=str(exc)), 400
    found = None
    if layout.space == "mat" and s.camera_raw is not None:  # are the markers in view right now?
        import cv2  # noqa: PLC0415
        import numpy as np  # noqa: PLC0415

        bgr = cv2.imdecode(np.frombuffer(s.camera_raw, np.uint8), cv2.IMREAD_COLOR)
        found = MatFinder()(bgr[..., ::-1]) is not None
    with s.lock:
        layout.save(s.store.path.parent / "layout.json")
        runner = current_app.extensions.get("camera_runner")
        if runner is not None:
            runner.table.set_layout(layout)
        s.bump()
    return jsonify({**layout.to_dict(), "mat_in_view": found})


@camera.get("/api/layout")
def get_layout():
    path = _service().store.path.parent / "layout.json"
    if not path.exists():
        return jsonify(zones={}, space="image")
    return Response(path.read_text(), mimetype="application/json")


class CameraRunner:
    """The live table in a thread: frames -> watcher -> the service's session."""

    def __init__(self, service, source_spec: str, layout, recognizer, taps=(), realtime: bool = False,
                 loop: bool = False, answer=None) -> None:
        """``answer``: names the cards the camera asks about (the demo's stand-in for the players;
        vision.table.answers), else the questions wait for a tap on the page. ``loop``: a video played
        again and again, each time as a fresh evening with its taps (the demo: a page opened late still
        sees a whole hand from its start)."""
        self.service, self.spec, self.taps, self.realtime, self.loop = service, source_spec, list(taps), realtime, loop
        self.answer, self.recognizer = answer, recognizer
        self._fresh(layout)
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self.stop = threading.Event()

    def _fresh(self, layout) -> None:
        """A watcher and a live table for the service's session: no track of an earlier run is kept."""
        self.service.watcher = Watcher(self.service.session, layout, on_record=self.service.on_watcher_record)
        self.table = LiveTable(self.service.watcher, self.recognizer, self.service.snapshots, keep_annotated=True)

    def start(self) -> "CameraRunner":
        self.thread.start()
        return self

    def _run(self) -> None:

        while not self.stop.is_set():
            source = Resilient(lambda: open_source(self.spec))
            frames = self._paced(source.frames())
            try:
                run(self.table, frames, self.taps, self._notice, self._frame, self.answer)
            except Exception as exc:  # a fault of ours: the record stands, the page says the camera stopped
                frames.close()  # leaves the frame's ``with lock`` in this thread: the page is never locked out
                traceback.print_exc()
                with self.service.lock:
                    self.service.camera_note = ("stopped", f"the camera stopped on an error ({exc}); the record is "
                                                "kept: go on by tapping, or restart the server")
                    self.service.bump()
                return
            if self.stop.is_set():
                return
            if not self.loop:  # a video file has ended: the page must not go on saying "watching"
                with self.service.lock:
                    self.service.camera_note = ("ended", "the video has ended")
                    self.service.bump()
                return
            with self.service.lock:  # the demo again, from the start, as a fresh evening
                self.service.replace_session(Session(self.service.session.rules), archive=False)
                self._fresh(self.table.watcher.layout)
                self.service.bump()

    def _paced(self, frames):
        """Under the service's lock, frame by frame; a video file at its own speed when asked."""
        start = time.monotonic()
        for f in frames:
            if self.stop.is_set():
                return
            if f is not None and self.realtime:
                delay = f.t - (time.monotonic() - start)
                if delay > 0:
                    time.sleep(delay)
            with self.service.lock:
                yield f

    def _notice(self, n) -> None:
        self.service.note([n])
        self.service.bump()

    def _frame(self, frame) -> None:
        import cv2  # noqa: PLC0415

        if self.table.annotated is not None:
            ok, buf = cv2.imencode(".jpg", self.table.annotated[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 70])
            if ok:
                self.service.camera_jpeg = buf.tobytes()
        ok, buf = cv2.imencode(".jpg", frame.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            self.service.camera_raw = buf.tobytes()
