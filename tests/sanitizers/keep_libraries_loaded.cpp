// Preloaded (LD_PRELOAD) into the sanitized test run only: dlclose() does nothing, so every
// library stays mapped until the process ends. Mesa's driver keeps state in its globals and is
// unloaded by eglTerminate; LeakSanitizer, which checks at exit, then sees that state as
// leaked from "<unknown module>" and cannot even name the library. With the library still
// mapped, the state is reachable again and isoview's own allocations are checked as before.
// Built without sanitizers by packaging/run-sanitizers-and-fuzzers.sh (it is preloaded into
// Python and the shell too).
extern "C" int dlclose(void* handle)
{
    static_cast<void>(handle);
    return 0;
}
