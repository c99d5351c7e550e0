"""The simulation lab: batch play over the game contract, statistics, balance sweeps, plots."""
