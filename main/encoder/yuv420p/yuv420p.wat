;; RGBA → yuv420p (BT.709, limited range) with 128-bit SIMD: the same bytes as yuv420p-reference.ts
;; (which is swscale 5.1 on x86-64 for Kino's filter), at a few ms a 1080×1920 frame.
;; Built into yuv420p-kernel.generated.ts by `npm run build:yuv-kernel` (wabt's wat2wasm).
;;
;; convertRows(src, dst, scratch, w, h, first, end): converts rows first..end-1 of a w×h frame,
;; whose straight RGBA src holds from row `first` on; dst receives the whole frame's Y plane then U
;; and V (w*h*3/2 bytes); scratch is scratchBytes(w) bytes of working rows, kept from one call to the
;; next, so a frame is converted by calls over consecutive bands of rows from 0 to h (the caller
;; copies each band in while it fits in the cache). w and h are even and at least 8. Row by row:
;;   1. each pixel's Y (final) and its 14-bit U and V, less one (U', V': see below), as i16;
;;   2. U' and V' filtered [1 3 3 1]/8 horizontally to 15 bits, into a ring of the last four rows;
;;   3. once the rows below a chroma row are in, that row filtered [1 3 3 1] vertically with
;;      swscale's x86 rounding (each tap truncated), or its C rounding for the last row.
;;
;; The arithmetic, exactly as the reference's, rearranged for i32x4.dot_i16x8_s (pmaddwd):
;; - A pixel's bytes are regrouped as i16 pairs (r, g) and (b, 128): the 128 stands in for alpha,
;;   which is ignored, and carries each sum's constant term as 128 × K with K fitting an i16.
;; - Y = (2*((S + 524288 + 256) >> 9) + 64) >> 7 = (S + 540928) >> 15, one shift (nested floors of
;;   positive divisors compose); 540928 = 128 × 4226.
;; - U14 = (S + 4194304 + 256) >> 9; U' = U14 - 1 = (S + 4194048) >> 9 with 4194048 = 128 × 32766.
;;   The horizontal filter of U14 is (ΣU' taps + 8) >> 2 (the taps weigh 8 in all). Same for V.
;; - The vertical taps are 512, 1536 (and 2048 folded on the first row); with h < 32768,
;;   floor(h*512/65536) = h >> 7, floor(h*2048/65536) = h >> 5 and
;;   floor(h*1536/65536) = (3*(h >> 1) + (h & 1)) >> 6, all inside u16 (checked for every h).
;; Stores past a row's end (up to 7 bytes) land in working rows' slack or in the next chroma row of
;; the same plane, which is written after; the last chroma row is written exactly, without SIMD.
(module
  (memory (export "memory") 1)

  ;; Bytes of one U' or V' row: 8 i16 of padding before (element -1 repeats element 0), w of
  ;; pixels, and slack for the filter reading past element w (which repeats element w-1).
  (func $rowStride (param $w i32) (result i32)
    (i32.shl (i32.add (local.get $w) (i32.const 48)) (i32.const 1)))

  ;; Bytes of one horizontally filtered row: w/2 samples and slack.
  (func $filteredStride (param $w i32) (result i32)
    (i32.shl (i32.add (i32.shr_u (local.get $w) (i32.const 1)) (i32.const 16)) (i32.const 1)))

  (func (export "scratchBytes") (param $w i32) (result i32)
    (i32.add
      (i32.shl (call $rowStride (local.get $w)) (i32.const 1))
      (i32.shl (call $filteredStride (local.get $w)) (i32.const 3))))

  ;; One row of w pixels: Y to $y (u8), U' to $u and V' to $v (i16), 8 pixels a step; the last
  ;; step is moved back to end at the row's end (it converts a few pixels twice, identically).
  (func $pixelRow (param $src i32) (param $y i32) (param $u i32) (param $v i32) (param $w i32)
    (local $x i32) (local $at i32) (local $last i32)
    (local $v0 v128) (local $v1 v128) (local $rg v128) (local $ba v128)
    (local $rgL v128) (local $rgH v128) (local $baL v128) (local $baH v128) (local $t v128)
    (local.set $last (i32.sub (local.get $w) (i32.const 8)))
    (loop $pixels
      (local.set $at
        (select (local.get $last) (local.get $x) (i32.gt_s (local.get $x) (local.get $last))))
      (local.set $v0 (v128.load (i32.add (local.get $src) (i32.shl (local.get $at) (i32.const 2)))))
      (local.set $v1
        (v128.load offset=16 (i32.add (local.get $src) (i32.shl (local.get $at) (i32.const 2)))))
      (local.set $rg
        (i8x16.shuffle 0 1 4 5 8 9 12 13 16 17 20 21 24 25 28 29 (local.get $v0) (local.get $v1)))
      (local.set $ba
        (v128.or
          (v128.and
            (i8x16.shuffle 2 3 6 7 10 11 14 15 18 19 22 23 26 27 30 31 (local.get $v0) (local.get $v1))
            (v128.const i16x8 0x00ff 0x00ff 0x00ff 0x00ff 0x00ff 0x00ff 0x00ff 0x00ff))
          (v128.const i16x8 -32768 -32768 -32768 -32768 -32768 -32768 -32768 -32768)))
      (local.set $rgL (i16x8.extend_low_i8x16_u (local.get $rg)))
      (local.set $rgH (i16x8.extend_high_i8x16_u (local.get $rg)))
      (local.set $baL (i16x8.extend_low_i8x16_u (local.get $ba)))
      (local.set $baH (i16x8.extend_high_i8x16_u (local.get $ba)))
      ;; Y: RY 5983, GY 20127, BY 2032.
      (local.set $t
        (i16x8.narrow_i32x4_s
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgL)
                (v128.const i16x8 5983 20127 5983 20127 5983 20127 5983 20127))
              (i32x4.dot_i16x8_s (local.get $baL)
                (v128.const i16x8 2032 4226 2032 4226 2032 4226 2032 4226)))
            (i32.const 15))
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgH)
                (v128.const i16x8 5983 20127 5983 20127 5983 20127 5983 20127))
              (i32x4.dot_i16x8_s (local.get $baH)
                (v128.const i16x8 2032 4226 2032 4226 2032 4226 2032 4226)))
            (i32.const 15))))
      (v128.store64_lane 0
        (i32.add (local.get $y) (local.get $at))
        (i8x16.narrow_i16x8_u (local.get $t) (local.get $t)))
      ;; U': RU -3298, GU -11094, BU 14392.
      (v128.store
        (i32.add (local.get $u) (i32.shl (local.get $at) (i32.const 1)))
        (i16x8.narrow_i32x4_s
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgL)
                (v128.const i16x8 -3298 -11094 -3298 -11094 -3298 -11094 -3298 -11094))
              (i32x4.dot_i16x8_s (local.get $baL)
                (v128.const i16x8 14392 32766 14392 32766 14392 32766 14392 32766)))
            (i32.const 9))
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgH)
                (v128.const i16x8 -3298 -11094 -3298 -11094 -3298 -11094 -3298 -11094))
              (i32x4.dot_i16x8_s (local.get $baH)
                (v128.const i16x8 14392 32766 14392 32766 14392 32766 14392 32766)))
            (i32.const 9))))
      ;; V': RV 14392, GV -13073, BV -1320.
      (v128.store
        (i32.add (local.get $v) (i32.shl (local.get $at) (i32.const 1)))
        (i16x8.narrow_i32x4_s
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgL)
                (v128.const i16x8 14392 -13073 14392 -13073 14392 -13073 14392 -13073))
              (i32x4.dot_i16x8_s (local.get $baL)
                (v128.const i16x8 -1320 32766 -1320 32766 -1320 32766 -1320 32766)))
            (i32.const 9))
          (i32x4.shr_s
            (i32x4.add
              (i32x4.dot_i16x8_s (local.get $rgH)
                (v128.const i16x8 14392 -13073 14392 -13073 14392 -13073 14392 -13073))
              (i32x4.dot_i16x8_s (local.get $baH)
                (v128.const i16x8 -1320 32766 -1320 32766 -1320 32766 -1320 32766)))
            (i32.const 9))))
      (local.set $x (i32.add (local.get $x) (i32.const 8)))
      (br_if $pixels (i32.lt_s (local.get $x) (local.get $w)))))

  ;; Repeats a U' or V' row's first and last elements past its ends (swscale's edge replication).
  (func $padRow (param $row i32) (param $w i32)
    (i32.store16 (i32.sub (local.get $row) (i32.const 2)) (i32.load16_u (local.get $row)))
    (i32.store16
      (i32.add (local.get $row) (i32.shl (local.get $w) (i32.const 1)))
      (i32.load16_u (i32.add (local.get $row) (i32.shl (i32.sub (local.get $w) (i32.const 1)) (i32.const 1))))))

  ;; out[j] = (row[2j-1] + 3 row[2j] + 3 row[2j+1] + row[2j+2] + 8) >> 2 for j < cw, 8 a step:
  ;; pairs (row[2j-1], row[2j]) · (1, 3) plus pairs (row[2j+1], row[2j+2]) · (3, 1).
  (func $filterRow (param $row i32) (param $out i32) (param $cw i32)
    (local $j i32) (local $p i32)
    (loop $samples
      (local.set $p (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
      (v128.store
        (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 1)))
        (i16x8.narrow_i32x4_s
          (i32x4.shr_s
            (i32x4.add
              (i32x4.add
                (i32x4.dot_i16x8_s (v128.load (i32.sub (local.get $p) (i32.const 2)))
                  (v128.const i16x8 1 3 1 3 1 3 1 3))
                (i32x4.dot_i16x8_s (v128.load offset=2 (local.get $p))
                  (v128.const i16x8 3 1 3 1 3 1 3 1)))
              (v128.const i32x4 8 8 8 8))
            (i32.const 2))
          (i32x4.shr_s
            (i32x4.add
              (i32x4.add
                (i32x4.dot_i16x8_s (v128.load offset=14 (local.get $p))
                  (v128.const i16x8 1 3 1 3 1 3 1 3))
                (i32x4.dot_i16x8_s (v128.load offset=18 (local.get $p))
                  (v128.const i16x8 3 1 3 1 3 1 3 1)))
              (v128.const i32x4 8 8 8 8))
            (i32.const 2))))
      (local.set $j (i32.add (local.get $j) (i32.const 8)))
      (br_if $samples (i32.lt_s (local.get $j) (local.get $cw)))))

  ;; floor(h*512/65536), floor(h*1536/65536) and floor(h*2048/65536) for eight 15-bit samples.
  (func $tap1 (param $h v128) (result v128)
    (i16x8.shr_u (local.get $h) (i32.const 7)))
  (func $tap3 (param $h v128) (result v128)
    (i16x8.shr_u
      (i16x8.add
        (i16x8.mul (i16x8.shr_u (local.get $h) (i32.const 1)) (v128.const i16x8 3 3 3 3 3 3 3 3))
        (v128.and (local.get $h) (v128.const i16x8 1 1 1 1 1 1 1 1)))
      (i32.const 6)))
  (func $tap4 (param $h v128) (result v128)
    (i16x8.shr_u (local.get $h) (i32.const 5)))

  ;; The first chroma row: rows 0 (taps 512 + 1536 folded), 1 and 2, x86 rounding.
  (func $firstChromaRow (param $r0 i32) (param $r1 i32) (param $r2 i32) (param $out i32) (param $cw i32)
    (local $x i32) (local $o i32) (local $s v128)
    (loop $samples
      (local.set $o (i32.shl (local.get $x) (i32.const 1)))
      (local.set $s
        (i16x8.shr_s
          (i16x8.add
            (i16x8.add
              (call $tap4 (v128.load (i32.add (local.get $r0) (local.get $o))))
              (call $tap3 (v128.load (i32.add (local.get $r1) (local.get $o)))))
            (i16x8.add
              (call $tap1 (v128.load (i32.add (local.get $r2) (local.get $o))))
              (v128.const i16x8 5 5 5 5 5 5 5 5)))
          (i32.const 3)))
      (v128.store64_lane 0
        (i32.add (local.get $out) (local.get $x))
        (i8x16.narrow_i16x8_u (local.get $s) (local.get $s)))
      (local.set $x (i32.add (local.get $x) (i32.const 8)))
      (br_if $samples (i32.lt_s (local.get $x) (local.get $cw)))))

  ;; A chroma row between the first and the last: four rows, taps 512 1536 1536 512, x86 rounding.
  (func $chromaRow (param $r0 i32) (param $r1 i32) (param $r2 i32) (param $r3 i32) (param $out i32) (param $cw i32)
    (local $x i32) (local $o i32) (local $s v128)
    (loop $samples
      (local.set $o (i32.shl (local.get $x) (i32.const 1)))
      (local.set $s
        (i16x8.shr_s
          (i16x8.add
            (i16x8.add
              (call $tap1 (v128.load (i32.add (local.get $r0) (local.get $o))))
              (call $tap3 (v128.load (i32.add (local.get $r1) (local.get $o)))))
            (i16x8.add
              (i16x8.add
                (call $tap3 (v128.load (i32.add (local.get $r2) (local.get $o))))
                (call $tap1 (v128.load (i32.add (local.get $r3) (local.get $o)))))
              (v128.const i16x8 5 5 5 5 5 5 5 5)))
          (i32.const 3)))
      (v128.store64_lane 0
        (i32.add (local.get $out) (local.get $x))
        (i8x16.narrow_i16x8_u (local.get $s) (local.get $s)))
      (local.set $x (i32.add (local.get $x) (i32.const 8)))
      (br_if $samples (i32.lt_s (local.get $x) (local.get $cw)))))

  ;; The last chroma row, with swscale's C rounding: rows h-3, h-2 and h-1 (taps 1536 + 512 folded),
  ;; (512 r0 + 1536 r1 + 2048 r2 + (1 << 18)) >> 19 = (r0 + 3 r1 + 4 r2 + 512) >> 10. Scalar, so
  ;; nothing is written past the plane's end.
  (func $lastChromaRow (param $r0 i32) (param $r1 i32) (param $r2 i32) (param $out i32) (param $cw i32)
    (local $x i32) (local $o i32)
    (loop $samples
      (local.set $o (i32.shl (local.get $x) (i32.const 1)))
      (i32.store8
        (i32.add (local.get $out) (local.get $x))
        (i32.shr_u
          (i32.add
            (i32.add
              (i32.load16_u (i32.add (local.get $r0) (local.get $o)))
              (i32.mul (i32.load16_u (i32.add (local.get $r1) (local.get $o))) (i32.const 3)))
            (i32.add
              (i32.shl (i32.load16_u (i32.add (local.get $r2) (local.get $o))) (i32.const 2))
              (i32.const 512)))
          (i32.const 10)))
      (local.set $x (i32.add (local.get $x) (i32.const 1)))
      (br_if $samples (i32.lt_s (local.get $x) (local.get $cw)))))

  (func (export "convertRows") (param $src i32) (param $dst i32) (param $scratch i32) (param $w i32) (param $h i32)
    (param $first i32) (param $end i32)
    (local $cw i32) (local $ch i32) (local $r i32) (local $y i32)
    (local $uRow i32) (local $vRow i32) (local $hStride i32) (local $hU i32) (local $hV i32)
    (local $uPlane i32) (local $vPlane i32) (local $ring i32)
    (local.set $cw (i32.shr_u (local.get $w) (i32.const 1)))
    (local.set $ch (i32.shr_u (local.get $h) (i32.const 1)))
    (local.set $uRow (i32.add (local.get $scratch) (i32.const 16)))
    (local.set $vRow (i32.add (local.get $uRow) (call $rowStride (local.get $w))))
    (local.set $hStride (call $filteredStride (local.get $w)))
    (local.set $hU (i32.add (local.get $scratch) (i32.shl (call $rowStride (local.get $w)) (i32.const 1))))
    (local.set $hV (i32.add (local.get $hU) (i32.shl (local.get $hStride) (i32.const 2))))
    (local.set $uPlane (i32.add (local.get $dst) (i32.mul (local.get $w) (local.get $h))))
    (local.set $vPlane (i32.add (local.get $uPlane) (i32.mul (local.get $cw) (local.get $ch))))
    (local.set $r (local.get $first))
    (loop $rows
      (call $pixelRow
        (i32.add (local.get $src)
          (i32.shl (i32.mul (i32.sub (local.get $r) (local.get $first)) (local.get $w)) (i32.const 2)))
        (i32.add (local.get $dst) (i32.mul (local.get $r) (local.get $w)))
        (local.get $uRow) (local.get $vRow) (local.get $w))
      (call $padRow (local.get $uRow) (local.get $w))
      (call $padRow (local.get $vRow) (local.get $w))
      (local.set $ring (i32.mul (i32.and (local.get $r) (i32.const 3)) (local.get $hStride)))
      (call $filterRow (local.get $uRow) (i32.add (local.get $hU) (local.get $ring)) (local.get $cw))
      (call $filterRow (local.get $vRow) (i32.add (local.get $hV) (local.get $ring)) (local.get $cw))
      ;; Row r = 2y+2 completes the rows chroma row y reads (2y-1 … 2y+2).
      (if (i32.and (i32.ge_u (local.get $r) (i32.const 2)) (i32.eqz (i32.and (local.get $r) (i32.const 1))))
        (then
          (local.set $y (i32.sub (i32.shr_u (local.get $r) (i32.const 1)) (i32.const 1)))
          (if (i32.eqz (local.get $y))
            (then
              (call $firstChromaRow
                (local.get $hU) (i32.add (local.get $hU) (local.get $hStride))
                (i32.add (local.get $hU) (i32.shl (local.get $hStride) (i32.const 1)))
                (local.get $uPlane) (local.get $cw))
              (call $firstChromaRow
                (local.get $hV) (i32.add (local.get $hV) (local.get $hStride))
                (i32.add (local.get $hV) (i32.shl (local.get $hStride) (i32.const 1)))
                (local.get $vPlane) (local.get $cw)))
            (else
              (call $chromaRow
                (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $r) (i32.const 3)) (local.get $hStride)))
                (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $r) (i32.const 2)) (local.get $hStride)))
                (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $r) (i32.const 1)) (local.get $hStride)))
                (i32.add (local.get $hU) (local.get $ring))
                (i32.add (local.get $uPlane) (i32.mul (local.get $y) (local.get $cw)))
                (local.get $cw))
              (call $chromaRow
                (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $r) (i32.const 3)) (local.get $hStride)))
                (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $r) (i32.const 2)) (local.get $hStride)))
                (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $r) (i32.const 1)) (local.get $hStride)))
                (i32.add (local.get $hV) (local.get $ring))
                (i32.add (local.get $vPlane) (i32.mul (local.get $y) (local.get $cw)))
                (local.get $cw))))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br_if $rows (i32.lt_u (local.get $r) (local.get $end))))
    (if (i32.lt_u (local.get $end) (local.get $h)) (then (return)))
    (local.set $y (i32.sub (local.get $ch) (i32.const 1)))
    (call $lastChromaRow
      (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $h) (i32.const 3)) (local.get $hStride)))
      (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $h) (i32.const 2)) (local.get $hStride)))
      (i32.add (local.get $hU) (call $ringRow (i32.sub (local.get $h) (i32.const 1)) (local.get $hStride)))
      (i32.add (local.get $uPlane) (i32.mul (local.get $y) (local.get $cw)))
      (local.get $cw))
    (call $lastChromaRow
      (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $h) (i32.const 3)) (local.get $hStride)))
      (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $h) (i32.const 2)) (local.get $hStride)))
      (i32.add (local.get $hV) (call $ringRow (i32.sub (local.get $h) (i32.const 1)) (local.get $hStride)))
      (i32.add (local.get $vPlane) (i32.mul (local.get $y) (local.get $cw)))
      (local.get $cw)))

  ;; Where luma row r's filtered chroma sits in its ring of four rows.
  (func $ringRow (param $r i32) (param $stride i32) (result i32)
    (i32.mul (i32.and (local.get $r) (i32.const 3)) (local.get $stride))))
