/* mapwake.c: bench_mapwake is framewake.c with its lower thread mapping and unmapping a
 * 256-page frame back to back: MAP and UNMAP hold themselves back at a preemption point for the
 * more urgent thread of their hart, as FRAME_NEW does (framewake.c says the rest). */
const int framewake_maps = 1;
