package minutes.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.Callable;
import minutes.keys.Scope;
import minutes.keys.ApiKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code keys create | list | revoke}: API keys; a secret is shown once and stored only as a hash. */
@Command(name = "keys", description = "Create, list and revoke API keys.",
    subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  @Command(name = "create", description = "Create a key; prints it alone on the last line (shown only this once).")
  static final class Create implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--workspace", required = true, paramLabel = "SLUG") String workspace;

    @Option(names = "--scopes", required = true, paramLabel = "a,b[,c]",
        description = "meetings:read, action_items:read, transcripts:read") String scopes;

    @Option(names = "--user", paramLabel = "EMAIL", description = "Makes a personal key that sees only this user's meetings.")
    String user;

    @Option(names = "--name", paramLabel = "LABEL") String name;

    @Override
    public Integer call() throws Exception {
      Set<Scope> parsed = ApiKeys.parseScopes(scopes);
      if (parsed.isEmpty()) throw new Cli.UserError("--scopes needs at least one scope");
      try (Connection c = Cli.writeMigrated(spec)) {
        ApiKeys.Created key = ApiKeys.create(c, workspace, parsed, user, name);
        PrintWriter out = spec.commandLine().getOut();
        out.println("created key " + key.id() + " for workspace " + workspace
            + (user == null ? "" : " (personal: " + user + ")") + "; store it now, it is not shown again:");
        out.println(key.secret());
      }
      return 0;
    }
  }

  @Command(name = "list", description = "List keys (never their secrets).")
  static final class ListKeys implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      try (Connection c = Cli.writeMigrated(spec)) {
        out.printf("%-16s %-12s %-24s %-16s %-50s %-20s %s%n", "ID", "WORKSPACE", "USER", "NAME", "SCOPES", "CREATED", "REVOKED");
        for (ApiKeys.KeyInfo k : ApiKeys.list(c)) {
          out.printf("%-16s %-12s %-24s %-16s %-50s %-20s %s%n", k.id(), k.workspace(), Cli.dash(k.user()), Cli.dash(k.name()),
              k.scopes(), k.createdAt(), Cli.dash(k.revokedAt()));
        }
      }
      return 0;
    }
  }

  @Command(name = "revoke", description = "Revoke a key by its id; it answers 401 from then on.")
  static final class Revoke implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "ID") String id;

    @Override
    public Integer call() throws Exception {
      return Cli.changeById(spec, id, "revoked", "no key with id " + id + " (see: keys list)", ApiKeys::revoke);
    }
  }
}
