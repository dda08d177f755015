/* framenew.c: bench_framewake is framewake.c with its lower thread making 256-page frames back
 * to back (framewake.c says the rest; mapwake.c is the other kind). */
const int framewake_maps = 0;
