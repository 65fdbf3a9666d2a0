"""Small pieces the rest of the kit stands on: package namespaces that import on first use
(:mod:`.lazy`), pausing the cyclic garbage collector (:mod:`.gc_pause`) and the old import
paths of moved modules (:mod:`.aliases`)."""
