// fmi3.rs -- the FMI 3.0 functions (to be written)
