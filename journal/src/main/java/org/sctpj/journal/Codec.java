package org.sctpj.journal;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.sctpj.stack.cc.CongestionControllerFactory;

/**
 * The journal's encoding of the values the core takes and hands out (command arguments, options,
 * events): a tag byte, then the value, little-endian. Records are encoded by their components, so
 * every event and option record of the stack is covered without a codec per type; sets are
 * written in a canonical order (by encoded bytes), so that equal values encode to equal bytes in
 * any JVM. An object of another named class (a custom congestion controller factory or address
 * selector) is written by its class name, and a replay rebuilds it by its public static final
 * {@code INSTANCE} field or its public no-arg constructor (or a substitute the replay is given); a
 * lambda or anonymous object is written as opaque (its class name): it can be shown, but not rebuilt
 * unless the replay is given a substitute for that name.
 */
final class Codec {

    static final int NULL = 0;
    static final int BOOL = 1;
    static final int INT = 2;
    static final int LONG = 3;
    static final int STRING = 4;
    static final int BYTES = 5;
    static final int INTS = 6;
    static final int ADDRESS = 7;
    static final int ENUM = 8;
    static final int LIST = 9;
    static final int SET = 10;
    static final int RECORD = 11;
    static final int DURATION = 12;
    static final int OPTIONAL = 13;
    static final int OPTIONAL_LONG = 14;
    static final int CONGESTION = 15;
    static final int DOUBLE = 16;
    static final int OPAQUE = 17;
    /**
     * An object of a named class that is neither a record nor an enum (a custom congestion
     * controller factory, an address selector), by its class name: a replay rebuilds it ({@link
     * #instance}).
     */
    static final int INSTANCE = 18;

    /**
     * What a replay builds in place of the classes a journal names by {@link #INSTANCE}, keyed by
     * class name; set by {@link Replay} on its thread for the length of a replay.
     */
    static final ThreadLocal<java.util.Map<String, ? extends java.util.function.Supplier<?>>> SUBSTITUTES =
            ThreadLocal.withInitial(java.util.Map::of);

    private Codec() {}

    /** Writes {@code v} with its tag. */
    static void write(Out out, Object v) {
        write(out, v, null);
    }

    /**
     * Writes {@code v} in the compact form of format 3: the same tags as {@link #write(Out,
     * Object)}, integers as varints, lengths and counts as varints, class and enum names by {@code
     * names}. {@link #transcode} turns it back into exactly what {@link #write(Out, Object)} writes.
     */
    static void writeCompact(Out out, Object v, Names names) {
        write(out, v, java.util.Objects.requireNonNull(names, "names"));
    }

    /** Writes {@code v} with its tag: as format 2 has it when {@code names} is null, else compactly. */
    private static void write(Out out, Object v, Names names) {
        boolean compact = names != null;
        if (v == null) {
            out.u8(NULL);
        } else if (v instanceof Boolean b) {
            out.u8(BOOL);
            out.u8(b ? 1 : 0);
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            out.u8(INT);
            int x = ((Number) v).intValue();
            if (compact) {
                out.zigzag32(x);
            } else {
                out.i32(x);
            }
        } else if (v instanceof Long l) {
            out.u8(LONG);
            if (compact) {
                out.zigzag(l);
            } else {
                out.i64(l);
            }
        } else if (v instanceof Double || v instanceof Float) {
            out.u8(DOUBLE);
            out.i64(Double.doubleToLongBits(((Number) v).doubleValue()));
        } else if (v instanceof String str) {
            out.u8(STRING);
            string(out, str, compact);
        } else if (v instanceof byte[] b) {
            out.u8(BYTES);
            count(out, b.length, compact);
            out.raw(b, 0, b.length);
        } else if (v instanceof int[] a) {
            out.u8(INTS);
            count(out, a.length, compact);
            for (int x : a) {
                if (compact) {
                    out.zigzag32(x);
                } else {
                    out.i32(x);
                }
            }
        } else if (v instanceof InetAddress a) {
            out.u8(ADDRESS);
            out.address(a);
        } else if (v instanceof Enum<?> e) {
            out.u8(ENUM);
            name(out, e.getDeclaringClass(), e.getDeclaringClass().getName(), names);
            name(out, e, e.name(), names);
        } else if (v instanceof Duration d) {
            out.u8(DURATION);
            if (compact) {
                out.zigzag(d.getSeconds());
                out.varint(d.getNano());
            } else {
                out.i64(d.getSeconds());
                out.i32(d.getNano());
            }
        } else if (v instanceof Optional<?> o) {
            out.u8(OPTIONAL);
            write(out, o.orElse(null), names);
        } else if (v instanceof OptionalLong o) {
            out.u8(OPTIONAL_LONG);
            out.u8(o.isPresent() ? 1 : 0);
            if (compact) {
                out.zigzag(o.orElse(0));
            } else {
                out.i64(o.orElse(0));
            }
        } else if (v instanceof List<?> l) {
            out.u8(LIST);
            count(out, l.size(), compact);
            for (Object x : l) {
                write(out, x, names);
            }
        } else if (v instanceof Set<?> set) {
            out.u8(SET);
            if (compact) { // in any order: transcode sorts, as the format 2 form is
                out.varint(set.size());
                for (Object x : set) {
                    write(out, x, names);
                }
                return;
            }
            List<byte[]> parts = new ArrayList<>();
            for (Object x : set) {
                Out o = new Out(32);
                write(o, x, null);
                parts.add(o.toArray());
            }
            parts.sort(Arrays::compare);
            out.i32(parts.size());
            for (byte[] p : parts) {
                out.raw(p, 0, p.length);
            }
        } else if (v instanceof CongestionControllerFactory f && congestionName(f) != null) {
            out.u8(CONGESTION);
            name(out, null, congestionName(f), names);
        } else if (v instanceof Record r) {
            RecordShape shape = SHAPES.get(r.getClass());
            out.u8(RECORD);
            if (compact) {
                names.write(out, r.getClass(), r.getClass().getName());
            } else {
                out.raw(shape.name, 0, shape.name.length);
            }
            out.u8(shape.accessors.length);
            for (java.lang.invoke.MethodHandle h : shape.accessors) {
                Object x;
                try {
                    x = (Object) h.invokeExact((Object) r);
                } catch (Throwable e) {
                    x = "unreadable: " + e;
                }
                write(out, x, names);
            }
        } else {
            out.u8(rebuildable(v.getClass()) ? INSTANCE : OPAQUE);
            name(out, null, v.getClass().getName(), names);
        }
    }

    private static void string(Out out, String s, boolean compact) {
        if (compact) {
            out.shortString(s);
        } else {
            out.string(s);
        }
    }

    private static void count(Out out, int n, boolean compact) {
        if (compact) {
            out.varint(n);
        } else {
            out.i32(n);
        }
    }

    /** A class or enum name: in full (format 2) or through {@code names} (kept by {@code key}). */
    private static void name(Out out, Object key, String name, Names names) {
        if (names == null) {
            out.string(name);
        } else {
            names.write(out, key, name);
        }
    }

    /**
     * The names a batch of the compact form (format 3) has written so far: a record or enum class
     * name or an enum constant is written in full the first time in a batch and by its number after
     * that, so that each batch still decodes on its own.
     */
    static final class Names {
        private final java.util.IdentityHashMap<Object, Integer> ids = new java.util.IdentityHashMap<>();
        private final List<String> read = new ArrayList<>();
        private int next = 1;

        /** Forgets every name: at the start of each batch. */
        void clear() {
            if (next > 1) {
                ids.clear();
                read.clear();
                next = 1;
            }
        }

        /** Writes {@code name}, keyed by {@code key} (a class or an enum constant; null: not kept). */
        void write(Out out, Object key, String name) {
            Integer id = key == null ? null : ids.get(key);
            if (id != null) {
                out.varint(id);
                return;
            }
            out.varint(0);
            out.shortString(name);
            if (key != null) {
                ids.put(key, next);
            }
            next++;
        }

        /** Reads a name written by {@link #write}. */
        String read(In in) {
            int id = in.count();
            if (id == 0) {
                String name = in.shortString();
                read.add(name);
                return name;
            }
            if (id > read.size()) {
                throw new IllegalArgumentException("name " + id + " at " + (in.position() - 1) + " was never written");
            }
            return read.get(id - 1);
        }
    }

    /**
     * Reads a value in the compact form ({@link #writeCompact}) from {@code in} and writes it to
     * {@code out} exactly as {@link #write} writes the value.
     *
     * @throws IllegalArgumentException for bytes that are not such a value
     */
    static void transcode(In in, Out out, Names names) {
        int tag = in.u8();
        out.u8(tag);
        switch (tag) {
            case NULL -> {}
            case BOOL -> out.u8(in.u8());
            case INT -> out.i32(in.zigzag32());
            case LONG -> out.i64(in.zigzag());
            case DOUBLE -> out.i64(in.i64());
            case STRING -> out.string(in.shortString());
            case BYTES -> {
                int n = in.count();
                out.i32(n);
                in.copyTo(out, n);
            }
            case INTS -> {
                int n = in.count();
                out.i32(n);
                for (int i = 0; i < n; i++) {
                    out.i32(in.zigzag32());
                }
            }
            case ADDRESS -> out.address(in.address());
            case ENUM -> {
                out.string(names.read(in));
                out.string(names.read(in));
            }
            case DURATION -> {
                out.i64(in.zigzag());
                out.i32(in.count());
            }
            case OPTIONAL -> transcode(in, out, names);
            case OPTIONAL_LONG -> {
                out.u8(in.u8());
                out.i64(in.zigzag());
            }
            case LIST -> {
                int n = in.count();
                out.i32(n);
                for (int i = 0; i < n; i++) {
                    transcode(in, out, names);
                }
            }
            case SET -> {
                int n = in.count();
                List<byte[]> parts = new ArrayList<>(Math.min(n, 1024));
                for (int i = 0; i < n; i++) {
                    Out o = new Out(32);
                    transcode(in, o, names);
                    parts.add(o.toArray());
                }
                parts.sort(Arrays::compare);
                out.i32(n);
                for (byte[] p : parts) {
                    out.raw(p, 0, p.length);
                }
            }
            case CONGESTION, INSTANCE, OPAQUE -> out.string(names.read(in));
            case RECORD -> {
                out.string(names.read(in));
                int n = in.u8();
                out.u8(n);
                for (int i = 0; i < n; i++) {
                    transcode(in, out, names);
                }
            }
            default -> throw new IllegalArgumentException(
                    "unknown value tag " + tag + " at byte " + (in.position() - 1));
        }
    }

    /** A class a replay can name again: not a lambda, anonymous, local or hidden class. */
    private static boolean rebuildable(Class<?> c) {
        return !c.isSynthetic() && !c.isHidden() && !c.isAnonymousClass() && !c.isLocalClass();
    }

    /**
     * Builds an object of the class the journal names: the replay's substitute for that name if it
     * was given one, else the class's public static final {@code INSTANCE} field of its own type (a
     * singleton), else its public no-arg constructor.
     *
     * @throws IllegalArgumentException in one sentence saying what to pass, when none of these works
     */
    static Object instance(String name) {
        java.util.function.Supplier<?> s = SUBSTITUTES.get().get(name);
        if (s != null) {
            return s.get();
        }
        String fix = ": give it a public no-arg constructor (or a public static final INSTANCE field), or replay"
                + " with --instance " + name + "=CLASS naming a class on the class path (--class-path) that has"
                + " one and builds an equivalent";
        Class<?> c;
        try {
            c = Class.forName(name, true, loader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException(
                    "the journal names " + name + ", which is not on the class path" + fix, e);
        }
        try {
            java.lang.reflect.Field f = c.getField("INSTANCE");
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && c.isAssignableFrom(f.getType())) {
                return f.get(null);
            }
        } catch (NoSuchFieldException | IllegalAccessException e) {
            // no singleton: try the constructor
        }
        try {
            Constructor<?> k = c.getConstructor();
            return k.newInstance();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException(
                    "the journal names " + name + ", which has no public no-arg constructor" + fix, e);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot build " + name + " for the replay: " + e + fix, e);
        }
    }

    /** The class loader for classes a journal names: the thread's context loader (the CLI's --class-path). */
    private static ClassLoader loader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : Codec.class.getClassLoader();
    }

    /** A record class's encoded name and its component accessors, looked up once per class. */
    private record RecordShape(byte[] name, java.lang.invoke.MethodHandle[] accessors) {}

    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            RecordComponent[] cs = type.getRecordComponents();
            java.lang.invoke.MethodHandle[] hs = new java.lang.invoke.MethodHandle[cs.length];
            for (int i = 0; i < cs.length; i++) {
                try {
                    java.lang.reflect.Method m = cs[i].getAccessor();
                    m.setAccessible(true);
                    hs[i] = java.lang.invoke.MethodHandles.lookup()
                            .unreflect(m)
                            .asType(java.lang.invoke.MethodType.methodType(Object.class, Object.class));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalStateException("cannot read the components of " + type + ": " + e, e);
                }
            }
            Out n = new Out(64);
            n.string(type.getName());
            return new RecordShape(n.toArray(), hs);
        }
    };

    private static String congestionName(CongestionControllerFactory f) {
        if (f == CongestionControllerFactory.RFC9260) {
            return "RFC9260";
        }
        if (f == CongestionControllerFactory.LINKED_INCREASES) {
            return "LINKED_INCREASES";
        }
        return null;
    }

    /**
     * Reads a value written by {@link #write}, rebuilding records, enums and the stack's
     * congestion controllers.
     *
     * @throws IllegalArgumentException for an opaque value or a class this JVM does not have
     */
    static Object read(In in) {
        int tag = in.u8();
        switch (tag) {
            case NULL:
                return null;
            case BOOL:
                return in.u8() != 0;
            case INT:
                return in.i32();
            case LONG:
                return in.i64();
            case DOUBLE:
                return Double.longBitsToDouble(in.i64());
            case STRING:
                return in.string();
            case BYTES:
                return in.bytes();
            case INTS: {
                int[] a = new int[in.i32()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = in.i32();
                }
                return a;
            }
            case ADDRESS:
                return in.address();
            case ENUM: {
                String cls = in.string();
                String name = in.string();
                return enumValue(cls, name);
            }
            case DURATION:
                return Duration.ofSeconds(in.i64(), in.i32());
            case OPTIONAL:
                return Optional.ofNullable(read(in));
            case OPTIONAL_LONG: {
                boolean present = in.u8() != 0;
                long x = in.i64();
                return present ? OptionalLong.of(x) : OptionalLong.empty();
            }
            case LIST: {
                int n = in.i32();
                List<Object> l = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    l.add(read(in));
                }
                return l;
            }
            case SET: {
                int n = in.i32();
                Set<Object> s = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    s.add(read(in));
                }
                return s;
            }
            case CONGESTION:
                return in.string().equals("RFC9260")
                        ? CongestionControllerFactory.RFC9260
                        : CongestionControllerFactory.LINKED_INCREASES;
            case RECORD:
                return readRecord(in);
            case INSTANCE:
                return instance(in.string());
            case OPAQUE: {
                String name = in.string();
                java.util.function.Supplier<?> s = SUBSTITUTES.get().get(name);
                if (s != null) {
                    return s.get();
                }
                throw new IllegalArgumentException("the journal holds a value of " + name
                        + ", a lambda or anonymous class a replay cannot rebuild: record with a named class that"
                        + " has a public no-arg constructor, or replay with --instance " + name + "=CLASS");
            }
            default:
                throw new IllegalArgumentException("unknown value tag " + tag + " at byte " + (in.position() - 1));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(String cls, String name) {
        try {
            return Enum.valueOf((Class) Class.forName(cls), name);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("the journal names enum " + cls + ", unknown to this build", e);
        }
    }

    private static Object readRecord(In in) {
        String name = in.string();
        int n = in.u8();
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = read(in);
        }
        try {
            Class<?> c = Class.forName(name, true, loader());
            RecordComponent[] cs = c.getRecordComponents();
            if (cs == null || cs.length != n) {
                throw new IllegalArgumentException("the journal's " + name + " has " + n
                        + " components, this build's has " + (cs == null ? 0 : cs.length)
                        + ": replay with the build that recorded it");
            }
            Class<?>[] types = new Class<?>[n];
            for (int i = 0; i < n; i++) {
                types[i] = cs[i].getType();
                values[i] = adapt(values[i], types[i]);
            }
            Constructor<?> k = c.getDeclaredConstructor(types);
            k.setAccessible(true);
            return k.newInstance(values);
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage() != null) {
                throw iae;
            }
            throw new IllegalArgumentException("cannot rebuild " + name + " from the journal: " + e, e);
        }
    }

    /** Fits a decoded value to a component's declared type (sets and lists keep their own classes). */
    private static Object adapt(Object v, Class<?> type) {
        if (v instanceof Collection<?> c && type == Set.class && !(v instanceof Set<?>)) {
            return Set.copyOf(c);
        }
        if (v instanceof Collection<?> c && type == List.class) {
            return List.copyOf(c);
        }
        return v;
    }

    /**
     * A short human form of an encoded value, for timelines and difference reports: records as
     * {@code Name[a, b]}, byte arrays by length.
     */
    static String describe(In in) {
        int tag = in.u8();
        switch (tag) {
            case NULL:
                return "null";
            case BOOL:
                return Boolean.toString(in.u8() != 0);
            case INT:
                return Integer.toString(in.i32());
            case LONG:
                return Long.toString(in.i64());
            case DOUBLE:
                return Double.toString(Double.longBitsToDouble(in.i64()));
            case STRING:
                return in.string();
            case BYTES:
                return in.bytes().length + " bytes";
            case INTS: {
                int n = in.i32();
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = in.i32();
                }
                return Arrays.toString(a);
            }
            case ADDRESS:
                return in.address().getHostAddress();
            case ENUM: {
                in.string();
                return in.string();
            }
            case DURATION:
                return Duration.ofSeconds(in.i64(), in.i32()).toString();
            case OPTIONAL:
                if (in.hasMore() && in.buf[in.pos] == NULL) {
                    in.u8();
                    return "none";
                }
                return describe(in);
            case OPTIONAL_LONG: {
                boolean present = in.u8() != 0;
                long x = in.i64();
                return present ? Long.toString(x) : "none";
            }
            case LIST:
            case SET: {
                int n = in.i32();
                StringBuilder b = new StringBuilder("[");
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "" : ", ").append(describe(in));
                }
                return b.append(']').toString();
            }
            case CONGESTION:
                return in.string();
            case RECORD: {
                String name = in.string();
                String simple = name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1);
                if (simple.equals("AssociationId")) {
                    in.u8();
                    return "assoc " + describe(in);
                }
                int n = in.u8();
                StringBuilder b = new StringBuilder(simple).append('[');
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "" : ", ").append(describe(in));
                }
                return b.append(']').toString();
            }
            case OPAQUE:
                return "opaque " + in.string();
            case INSTANCE:
                return "instance of " + in.string();
            default:
                return "?tag" + tag;
        }
    }

    /** A growable little-endian writer. */
    static final class Out {
        byte[] buf;
        int pos;

        Out(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        void ensure(int n) {
            if (pos + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
            }
        }

        void u8(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
        }

        void i32(int v) {
            ensure(4);
            buf[pos] = (byte) v;
            buf[pos + 1] = (byte) (v >>> 8);
            buf[pos + 2] = (byte) (v >>> 16);
            buf[pos + 3] = (byte) (v >>> 24);
            pos += 4;
        }

        void i64(long v) {
            i32((int) v);
            i32((int) (v >>> 32));
        }

        void raw(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
        }

        void raw(java.nio.ByteBuffer b) {
            int len = b.remaining();
            ensure(len);
            b.get(b.position(), buf, pos, len);
            pos += len;
        }

        void bytes(byte[] b, int off, int len) {
            i32(len);
            raw(b, off, len);
        }

        /** A length-prefixed copy of {@code b} from position to limit (the buffer is not moved). */
        void bytes0(java.nio.ByteBuffer b) {
            i32(b.remaining());
            raw(b);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            bytes(b, 0, b.length);
        }

        void address(InetAddress a) {
            if (a == null) {
                u8(0);
                return;
            }
            byte[] b = a.getAddress();
            u8(b.length);
            raw(b, 0, b.length);
        }

        /** An unsigned LEB128 varint: 7 bits a byte, low bits first, the top bit set on all but the last. */
        void varint(long v) {
            if ((v & ~0x7FL) == 0) {
                ensure(1);
                buf[pos++] = (byte) v;
                return;
            }
            ensure(10);
            if ((v & ~0x3FFFL) == 0) {
                buf[pos] = (byte) (v | 0x80);
                buf[pos + 1] = (byte) (v >>> 7);
                pos += 2;
                return;
            }
            while ((v & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        }

        /** A signed value as a zigzag varint (small magnitudes of either sign take few bytes). */
        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        /** A 32-bit value as a zigzag varint of its signed value. */
        void zigzag32(int v) {
            varint(((v << 1) ^ (v >> 31)) & 0xFFFFFFFFL);
        }

        /**
         * A varint of {@code v} in exactly {@code size} bytes (1 to 4), padded with continuation
         * bytes when {@code v} needs fewer: for a length patched in after the bytes it counts.
         */
        void paddedVarint(int at, int size, int v) {
            for (int i = 0; i < size - 1; i++) {
                buf[at + i] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[at + size - 1] = (byte) v;
        }

        /** A big-endian 32-bit value. */
        void be32(int v) {
            ensure(4);
            buf[pos] = (byte) (v >>> 24);
            buf[pos + 1] = (byte) (v >>> 16);
            buf[pos + 2] = (byte) (v >>> 8);
            buf[pos + 3] = (byte) v;
            pos += 4;
        }

        /** A string as a varint length and its UTF-8 bytes. */
        void shortString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            raw(b, 0, b.length);
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, pos);
        }
    }

    /** A little-endian reader over a byte array. */
    static final class In {
        final byte[] buf;
        int pos;
        final int end;

        In(byte[] buf, int off, int end) {
            this.buf = buf;
            this.pos = off;
            this.end = end;
        }

        int position() {
            return pos;
        }

        boolean hasMore() {
            return pos < end;
        }

        private void need(int n) {
            if (pos + n > end) {
                throw new IllegalArgumentException(
                        "truncated entry: " + n + " bytes needed at " + pos + ", " + (end - pos) + " left");
            }
        }

        int u8() {
            need(1);
            return buf[pos++] & 0xff;
        }

        int i32() {
            need(4);
            int v = (buf[pos] & 0xff)
                    | (buf[pos + 1] & 0xff) << 8
                    | (buf[pos + 2] & 0xff) << 16
                    | (buf[pos + 3] & 0xff) << 24;
            pos += 4;
            return v;
        }

        long i64() {
            long lo = i32() & 0xffffffffL;
            long hi = i32() & 0xffffffffL;
            return lo | hi << 32;
        }

        byte[] bytes() {
            int n = i32();
            if (n < 0) {
                throw new IllegalArgumentException("negative length " + n + " at " + (pos - 4));
            }
            need(n);
            byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return b;
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        /** An unsigned LEB128 varint ({@link Out#varint}). */
        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("a varint longer than 10 bytes at " + (pos - 10));
        }

        /** A varint that must fit an int from 0 up: a length or a count. */
        int count() {
            long v = varint();
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a count of " + v + " at " + pos);
            }
            return (int) v;
        }

        /** A zigzag varint ({@link Out#zigzag}). */
        long zigzag() {
            long v = varint();
            return (v >>> 1) ^ -(v & 1);
        }

        /** A 32-bit zigzag varint ({@link Out#zigzag32}). */
        int zigzag32() {
            int v = (int) varint();
            return (v >>> 1) ^ -(v & 1);
        }

        /** A big-endian 32-bit value. */
        int be32() {
            need(4);
            int v = (buf[pos] & 0xff) << 24
                    | (buf[pos + 1] & 0xff) << 16
                    | (buf[pos + 2] & 0xff) << 8
                    | buf[pos + 3] & 0xff;
            pos += 4;
            return v;
        }

        /** A string written by {@link Out#shortString}. */
        String shortString() {
            int n = count();
            need(n);
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        /** Copies the next {@code n} bytes to {@code out}. */
        void copyTo(Out out, int n) {
            need(n);
            out.raw(buf, pos, n);
            pos += n;
        }

        InetAddress address() {
            int n = u8();
            if (n == 0) {
                return null;
            }
            if (n != 4 && n != 16) {
                throw new IllegalArgumentException("address of " + n + " bytes at " + (pos - 1));
            }
            need(n);
            byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            try {
                return InetAddress.getByAddress(b);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(e);
            }
        }
    }
}
