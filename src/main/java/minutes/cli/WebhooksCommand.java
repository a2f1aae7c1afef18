package minutes.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.util.concurrent.Callable;
import minutes.webhooks.Webhooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code webhooks create | list | delete | enable} (decisions.md "Push"): only an operator aims
 * the server at an address, never an API caller. The signing secret is shown once, at creation.
 */
@Command(name = "webhooks", description = "Create, list, delete and re-enable webhooks (a key's changes, pushed).",
    subcommands = {WebhooksCommand.Create.class, WebhooksCommand.ListWebhooks.class, WebhooksCommand.Delete.class,
        WebhooksCommand.Enable.class})
final class WebhooksCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  @Command(name = "create", description = "Create a webhook for a key; prints its id, then its signing secret alone "
      + "on the last line (shown only this once).")
  static final class Create implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--key", required = true, paramLabel = "KEY_ID", description = "The key whose changes it hears (see: keys list).")
    String key;

    @Option(names = "--url", required = true, paramLabel = "URL", description = "Where changes are POSTed (http or https).")
    String url;

    @Option(names = "--name", paramLabel = "LABEL") String name;

    @Override
    public Integer call() throws Exception {
      try (Connection c = Cli.writeMigrated(spec)) {
        Webhooks.Created w = Webhooks.create(c, key, url, name);
        PrintWriter out = spec.commandLine().getOut();
        out.println("created webhook " + w.id() + " for key " + key + " -> " + url
            + "; its signing secret follows, store it now, it is not shown again:");
        out.println(w.secret());
      }
      return 0;
    }
  }

  @Command(name = "list", description = "List webhooks: state, last delivery, and why one is failing (never their secrets).")
  static final class ListWebhooks implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      String row = "%-16s %-16s %-9s %-20s %-20s %-40s %s%n";
      try (Connection c = Cli.writeMigrated(spec)) {
        out.printf(row, "ID", "KEY", "STATE", "LAST_DELIVERY", "FAILING_SINCE", "URL", "WHY");
        for (Webhooks.Webhook w : Webhooks.list(c)) {
          out.printf(row, w.id(), w.keyId(), w.state(), Cli.dash(w.lastDeliveryAt()), Cli.dash(w.failingSince()),
              w.url() + (w.name() == null ? "" : " (" + w.name() + ")"), Cli.dash(w.lastError()));
        }
      }
      return 0;
    }
  }

  @Command(name = "delete", description = "Delete a webhook; nothing more is sent to it.")
  static final class Delete implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "ID") String id;

    @Override
    public Integer call() throws Exception {
      return Cli.changeById(spec, id, "deleted", "no webhook with id " + id + " (see: webhooks list)", Webhooks::delete);
    }
  }

  @Command(name = "enable", description = "Deliver again to a failing or disabled webhook, from the change it stopped at.")
  static final class Enable implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "ID") String id;

    @Override
    public Integer call() throws Exception {
      return Cli.changeById(spec, id, "enabled", "no webhook with id " + id + " (see: webhooks list)", Webhooks::enable);
    }
  }
}
