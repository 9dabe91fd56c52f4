/**
 * The one binding of the C library that sctpj's Linux lower layers ({@code org.sctpj.llp.udp}'s
 * native path and {@code llp-raw}) share: the libc calls through JNR-FFI, bound once per process,
 * with the Linux constants, struct layouts and helpers around them. Internal to sctpj: not an API
 * for applications.
 *
 * <p>The package is exported to every module, not only to the two lower layers: JNR-FFI
 * implements {@link org.sctpj.nativeio.LibC} in a class loader of its own, whose unnamed module
 * must be able to read the interface.
 */
module org.sctpj.nativeio {
    // LibC's signatures use jnr.ffi.Pointer, so its users need the module too (javac warns that it
    // is an automatic module: jnr-ffi ships no module-info, only an Automatic-Module-Name).
    requires transitive org.jnrproject.ffi;

    exports org.sctpj.nativeio;
}
