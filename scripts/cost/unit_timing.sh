#!/bin/sh
# Provisional iCE40 timing of the arithmetic units (data/unit-timing.json, docs/cost.md), until the unit
# re-cut's own measurements replace the file. Each unit is wrapped with registers on every input (valid, op, a, b),
# so a latency-1 unit is measured register to register; the unit's result register drives the output pins.
# yosys synth_ice40 + nextpnr-ice40 --hx8k --package ct256 --seed 1 --freq 100 --timing-allow-fail.
# Usage: scripts/cost/unit_timing.sh WORKDIR > data/unit-timing.json     (from the repository root)
set -eu
work=${1:?usage: unit_timing.sh WORKDIR}
mkdir -p "$work"
rtl=$(cd "$(dirname "$0")/../../rtl/units" && pwd)
latencies=${LATENCIES:-"1 2 3"}
first=1
printf '{\n "tool": "yosys synth_ice40 + nextpnr-ice40 (Debian 12), provisional: today'"'"'s units",\n'
printf ' "device": "hx8k",\n "package": "ct256",\n "seed": 1,\n'
printf ' "command": "scripts/cost/unit_timing.sh WORKDIR > data/unit-timing.json",\n "units": [\n'
for unit in fp32-add fp32-mul fx-add fx-mul; do
  for lat in $latencies; do
    mod=$(echo "$unit" | tr - _)
    case $unit in
      *add) opport=".op_i(op_q), "; oprange="";;
      *) opport=""; oprange="";;
    esac
    case $unit in
      fx-*) params="#(.Width(32), .Frac(16), .Latency($lat), .Pipelined(1))"; frac=16;;
      *) params="#(.Latency($lat), .Pipelined(1))"; frac=0;;
    esac
    case $unit in
      fp32-*) flags="wire [4:0] flags; assign flags_o = flags;"; flagport=", .flags_o(flags)";;
      *) flags="assign flags_o = 5'd0;"; flagport="";;
    esac
    d="$work/$mod-$lat"
    mkdir -p "$d"
    cat > "$d/tw.v" <<V
\`timescale 1ns/1ps
module unit_tw (
  input wire clk_i, input wire rst_ni, input wire valid_i, input wire [1:0] op_i,
  input wire [31:0] a_i, input wire [31:0] b_i,
  output wire valid_o, output wire [31:0] result_o, output wire [4:0] flags_o
);
  reg valid_q; reg [1:0] op_q; reg [31:0] a_q, b_q;
  always @(posedge clk_i) begin valid_q <= valid_i; op_q <= op_i; a_q <= a_i; b_q <= b_i; end
  $flags
  $mod $params u_unit (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), ${opport}.a_i(a_q), .b_i(b_q),
    .valid_o(valid_o), .result_o(result_o)$flagport);
endmodule
V
    # A report already in WORKDIR (same script, same RTL) is reused: delete WORKDIR to measure again.
    [ -s "$d/report.json" ] || { yosys -q -l "$d/yosys.log" -p "read_verilog $rtl/*.v $d/tw.v; synth_ice40 -top unit_tw -json $d/ice40.json" >/dev/null 2>&1
    nextpnr-ice40 --hx8k --package ct256 --json "$d/ice40.json" --freq 100 --seed 1 --timing-allow-fail \
      --report "$d/report.json" -q -l "$d/nextpnr.log" >/dev/null 2>&1; }
    row=$(jq -c --arg u "$unit" --argjson l "$lat" --argjson f "$frac" \
      '{unit: $u, latency: $l, pipelined: true, width: 32, frac: $f,
        fmax_mhz: ([.fmax[].achieved] | min), logic_cells: .utilization.ICESTORM_LC.used,
        ram: .utilization.ICESTORM_RAM.used, io: .utilization.SB_IO.used}' "$d/report.json")
    [ $first = 1 ] || printf ',\n'
    first=0
    printf '  %s' "$row"
  done
done
printf '\n ]\n}\n'
