"""The run: the engine (one entry point for every front end), the rule catalog and runner, the
caches, baselines and waivers, what was checked, and the folding of repeated findings."""
