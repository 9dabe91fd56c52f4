package org.sctpj.stack.cc;

import java.util.List;

/** A factory of the stack's own with a readable name (for the options' toString). */
final class BuiltinFactory implements CongestionControllerFactory {
    private final String name;
    private final CongestionControllerFactory delegate;

    BuiltinFactory(String name, CongestionControllerFactory delegate) {
        this.name = name;
        this.delegate = delegate;
    }

    @Override
    public CongestionController create(List<? extends PathCongestionState> paths) {
        return delegate.create(paths);
    }

    @Override
    public String toString() {
        return name;
    }
}
