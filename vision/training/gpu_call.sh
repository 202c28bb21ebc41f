#!/bin/bash
# One leased-GPU call (docs/gpu-round.md): the detector's scenes, then the detector fine-tuned for the time
# left, every step bounded so that the weights come back even if a step runs slow.
# Env: SCENES (training scenes), BUDGET (seconds the whole call may take), DEV (0, or cpu to try it here),
# W (processes); run from the repository root with .whl and .carry carried.
set -u
cd "$(dirname "$0")/../.."
T0=$(date +%s)
OUT=${OUT:-runs/gpu-out}; mkdir -p "$OUT"
export PYTHONPATH=/tmp/site:$PWD CHRATZE_SHARED=$PWD/.carry/shared CHRATZE_CACHE=$PWD/.carry/cache PYTHONUNBUFFERED=1
if [ "$DEV" != cpu ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
  PY=python3
else
  PY=.venv/bin/python
fi
{ date; nproc; nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1;
  $PY -c "import torch,cv2,numpy,onnx,ultralytics;print(torch.__version__,torch.cuda.is_available(),cv2.__version__,numpy.__version__,onnx.__version__,ultralytics.__version__)"; } > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
P=swiss,drawn,svg-cards,cardsjs
L=0.3,0.2,0.15,0.15,0.2
OMP_NUM_THREADS=1 timeout 240 $PY -m vision.training.round data --scenes "$SCENES" --seed 401 --workers "$W" --packs $P --layouts $L 2>&1 | tr '\r' '\n' | grep --line-buffered -v "it/s]\|job/s]\|s/job]" | tail -5
D=runs/round/data/detect
if [ ! -f $D/data.yaml ]; then  # cut short: keep the scenes with labels, borrow val scenes if none
  $PY - <<'PY'
from pathlib import Path
import shutil
from datasets.build import data_yaml
d = Path("runs/round/data/detect")
for s in ("train", "val"):
    (d / "images" / s).mkdir(parents=True, exist_ok=True); (d / "labels" / s).mkdir(parents=True, exist_ok=True)
    for f in (d / "images" / s).glob("*.jpg"):
        if not (d / "labels" / s / (f.stem + ".txt")).is_file():
            f.unlink()
if not any((d / "images" / "val").iterdir()):
    train = sorted((d / "images" / "train").glob("*.jpg"))
    for f in train[:max(1, len(train) // 20)]:
        shutil.move(f, d / "images" / "val" / f.name)
        shutil.move(d / "labels" / "train" / (f.stem + ".txt"), d / "labels" / "val" / (f.stem + ".txt"))
data_yaml(d)
print("data cut short; yaml written")
PY
fi
echo "data: $(( $(date +%s) - T0 )) s, $(ls $D/images/train | wc -l) train images" | tee -a "$OUT/env.txt"
LEFT=$(( BUDGET - ($(date +%s) - T0) - 100 ))
MIN=$(python3 -c "print(max($LEFT, 30) / 60)")
echo "training for $MIN min" | tee -a "$OUT/env.txt"
timeout -s INT $(( LEFT + 70 )) $PY -m vision.training.round detector --minutes "$MIN" --device "$DEV" --workers "$W" --out "$OUT" 2>&1 \
  | tr '\r' '\n' | grep --line-buffered -v "it/s]\|s/it]" > "$OUT/train.log"
tail -25 "$OUT/train.log"
R=$(ls -dt runs/round/runs/detect* 2>/dev/null | head -1)  # the newest (detect10 sorts before detect2)
if [ ! -f "$OUT/card-detector.pt" ]; then  # cut short: the step brought nothing back itself
  cp "$R/weights/best.pt" "$OUT/card-detector.pt" 2>/dev/null || cp "$R/weights/last.pt" "$OUT/card-detector.pt"
  [ -f "$R/results.csv" ] && cp "$R/results.csv" "$OUT/results.csv"
fi
echo "done: $(( $(date +%s) - T0 )) s" | tee -a "$OUT/env.txt"; ls -la "$OUT"
