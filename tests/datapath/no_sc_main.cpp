// dp_tests runs under GoogleTest's main and never elaborates a SystemC design, but it links the SystemC model
// library: libsystemc.so refers to sc_main, which every program linking it must define. Without optimisation
// (the sanitizer build) nothing inlines the SystemC calls away, the library becomes needed, and the link fails
// without this definition.
int sc_main(int /*argc*/, char** /*argv*/) { return 0; }
