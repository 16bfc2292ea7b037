#!/bin/bash
# Face-reader rounds on a lent GPU machine, which does not hold ../shared/datasets: the real sets travel as a pack
# (vision.lab.training.packing), the 3D scenes are rendered there on its CPU cores. Run from the repository root:
#   vision/lab/training/on_gpu.sh render 75                       # 12 renderers side by side, about 40 s
#   vision/lab/training/on_gpu.sh train OUT/A 6 --net faces --init vision/models/faces.pt --seed 11 &
#   vision/lab/training/on_gpu.sh train OUT/B 6 --net lite0 --init lite0.pt --seed 12 & wait
# PACK (default .gpu/pack.npz) and HARD (default .gpu/hard.json, from vision.lab.training.mine) name the material.
set -eu
PY=${PY:-python3}
PACK=${PACK:-.gpu/pack.npz}
HARD=${HARD:-.gpu/hard.json}
SCENES=${SCENES:-/tmp/r3d}
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
T=vision.lab.training
case $1 in
render)  # $2 scenes per renderer: 8 renderers of flat and leaning dice (10..40 degrees), 4 of leaning ones (18..40)
  n=$2 m=$(( ($2 * 13 + 19) / 20 ))
  for k in 0 1 2 3 4 5 6 7; do
    $PY -m $T.render3d --out "$SCENES/flat$k" --scenes "$n" --seed $((500000 + k * n)) --lean 0.3 > "$SCENES-flat$k.log" &
  done
  for k in 0 1 2 3; do
    $PY -m $T.render3d --out "$SCENES/lean$k" --scenes "$m" --seed $((600000 + k * m)) --lean 0.25 --lean-min 18 \
      > "$SCENES-lean$k.log" &
  done
  wait
  tail -qn1 "$SCENES"-*.log ;;
train)  # $2 output folder, $3 minutes, then more arguments for vision.lab.training.train
  out=$2 minutes=$3
  shift 3
  mkdir -p "$out"
  $PY -m $T.train faces --pack "$PACK" --sets tray-d6-photos wood-webcam-d6 epanemu-dice3 tomitomi3-gray-d6 \
    --hard "$HARD" --scenes3d "$SCENES"/lean* --flat3d "$SCENES"/flat* --share3d 0.2 --cocked2d 0.1 \
    --threads 1 --workers 6 --batch 128 --lr 1.5e-3 --minutes "$minutes" --out "$out/faces.onnx" "$@" > "$out.log" 2>&1
  grep -v '^step' "$out.log" | grep -v Warning | tail -n3 ;;
*) echo "usage: $0 render SCENES_PER_RENDERER | train OUT MINUTES [train arguments]" >&2; exit 2 ;;
esac
