package dev.canopy.cli.config;

import dev.canopy.gridconfig.internal.hosts.SiteRule;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --site-by} as written on the command line ({@code config from-hostfile}, {@code from-slurm}, {@code launch}). */
public final class SiteRuleConverter implements ITypeConverter<SiteRule> {

    @Override
    public SiteRule convert(String text) {
        try {
            return SiteRule.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
