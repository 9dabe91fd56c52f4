package org.sctpj.stack;

/**
 * Identifies an association within its {@link Endpoint}. Ids are never reused by an endpoint.
 *
 * @param value the numeric id, positive
 */
public record AssociationId(int value) {
    // Written out rather than generated: a record's own equals and hashCode go through an
    // invokedynamic bootstrap, and a map shared with other key types calls them megamorphically,
    // where the generated form is not inlined (a hash map lookup per send showed at 18% of the
    // sending stack thread in a profile of the bulk run).
    @Override
    public boolean equals(Object o) {
        return o instanceof AssociationId other && other.value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return "assoc#" + value;
    }
}
