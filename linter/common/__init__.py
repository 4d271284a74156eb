"""What every layer uses: the finding vocabulary, the characters no report prints raw, progress,
how a run ends, forked work, safe writing, deep recursion, union-find and the caches' file format.
Imports nothing of speclint."""
