package org.sctpj.stack.guard;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a compiled class refers to, read straight from its class file (JVMS chapter 4) without any
 * bytecode library: the classes named in its constant pool and in its descriptors and signatures,
 * the fields and methods it references, and its {@code ACC_SYNCHRONIZED} methods.
 *
 * @param className the class's binary name with dots ({@code org.sctpj.stack.wire.SctpPacket})
 * @param classes internal names ({@code java/lang/Thread}) of every class the class refers to, from
 *     Class constants (array element types included) and from {@code L...;} types in descriptors
 *     and generic signatures
 * @param members every field and method reference (Fieldref, Methodref, InterfaceMethodref)
 * @param synchronizedMethods name and descriptor of each method with the ACC_SYNCHRONIZED flag
 */
record ClassFileRefs(String className, Set<String> classes, List<MemberRef> members, List<String> synchronizedMethods) {

    /** A field or method reference: owner class (internal name), member name and descriptor. */
    record MemberRef(String owner, String name, String descriptor, boolean field) {
        @Override
        public String toString() {
            return owner + "." + name + (field ? "" : descriptor);
        }
    }

    private static final Pattern OBJECT_TYPE = Pattern.compile("L([\\w/$]+)[;<]");
    private static final int ACC_SYNCHRONIZED = 0x0020;

    /** Parses a class file. */
    static ClassFileRefs parse(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file (bad magic)");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        int[] tags = new int[count];
        String[] utf8 = new String[count];
        int[] a = new int[count];
        int[] b = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            tags[i] = tag;
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // 8-byte constants take two slots (JVMS 4.4.5)
                }
                case 7, 8, 16, 19, 20 -> a[i] = in.readUnsignedShort();
                case 9, 10, 11, 12, 17, 18 -> {
                    a[i] = in.readUnsignedShort();
                    b[i] = in.readUnsignedShort();
                }
                case 15 -> {
                    a[i] = in.readUnsignedByte();
                    b[i] = in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at index " + i);
            }
        }
        in.readUnsignedShort(); // access flags
        String className = utf8[a[in.readUnsignedShort()]].replace('/', '.');
        in.readUnsignedShort(); // super class
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) {
            in.readUnsignedShort();
        }
        skipMembers(in, null, utf8); // fields
        List<String> synchronizedMethods = new ArrayList<>();
        skipMembers(in, synchronizedMethods, utf8); // methods

        Set<String> classes = new LinkedHashSet<>();
        List<MemberRef> members = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            switch (tags[i]) {
                case 7 -> {
                    String name = utf8[a[i]];
                    if (name.startsWith("[")) {
                        addDescriptorTypes(name, classes);
                    } else {
                        classes.add(name);
                    }
                }
                case 1 -> addDescriptorTypes(utf8[i], classes);
                case 9, 10, 11 -> {
                    String owner = utf8[a[a[i]]];
                    int nameAndType = b[i];
                    members.add(new MemberRef(owner, utf8[a[nameAndType]], utf8[b[nameAndType]], tags[i] == 9));
                }
                default -> {}
            }
        }
        return new ClassFileRefs(className, classes, members, synchronizedMethods);
    }

    private static void addDescriptorTypes(String s, Set<String> out) {
        if (s.indexOf(';') < 0) {
            return;
        }
        Matcher m = OBJECT_TYPE.matcher(s);
        while (m.find()) {
            out.add(m.group(1));
        }
    }

    /** Reads a fields or methods table; for methods, records the synchronized ones. */
    private static void skipMembers(DataInputStream in, List<String> synchronizedOut, String[] utf8)
            throws IOException {
        int n = in.readUnsignedShort();
        for (int i = 0; i < n; i++) {
            int access = in.readUnsignedShort();
            String name = utf8[in.readUnsignedShort()];
            String descriptor = utf8[in.readUnsignedShort()];
            if (synchronizedOut != null && (access & ACC_SYNCHRONIZED) != 0) {
                synchronizedOut.add(name + descriptor);
            }
            int attributes = in.readUnsignedShort();
            for (int j = 0; j < attributes; j++) {
                in.readUnsignedShort();
                in.skipNBytes(Integer.toUnsignedLong(in.readInt()));
            }
        }
    }
}
