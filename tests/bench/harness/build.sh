#!/bin/bash
# Builds tests/bench/harness/engine_harness.cpp against the core files it needs, outside CMake.
# usage: tests/bench/harness/build.sh SRC_ROOT OUT_DIR [extra flags, e.g. -march=native]
# SRC_ROOT: a checkout of the version to time (e.g. `git archive HEAD core | tar -x -C DIR`).
set -e
src=$1; out=$2; shift 2
files="core/topics/document_moments.cpp core/topics/contrastive_topic_model.cpp core/topics/synthetic_topics.cpp
       core/tensor/symmetric_tensor.cpp core/tensor/linalg.cpp core/tensor/randomized_eigen.cpp
       core/tensor/tensor_power_method.cpp core/tensor/power_trials.cpp core/tensor/tensor_closed_forms.cpp core/tensor/skinny_product.cpp core/tensor/jennrich.cpp core/tensor/asymmetric_power_method.cpp
       core/common/parallel.cpp"
[ -f "$src/core/topics/moment_kernels.cpp" ] && files="core/topics/moment_kernels.cpp $files"
mkdir -p "$out"
objs=""
for f in $files; do
    o="$out/$(basename "$f" .cpp).o"; objs="$objs $o"
    g++ -std=c++20 -O3 -DNDEBUG -g "$@" -I"$src" -isystem /usr/include/eigen3 -c "$src/$f" -o "$o"
done
g++ -std=c++20 -O3 -DNDEBUG -g "$@" -I"$src" -isystem /usr/include/eigen3 \
    "$(dirname "$0")/engine_harness.cpp" $objs -o "$out/harness" -lpthread
