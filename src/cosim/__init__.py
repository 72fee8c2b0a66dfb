"""cosim: an SSP 2.0 co-simulation master for FMI 3.0 and 2.0 FMUs."""

__version__ = "0.1.0"
