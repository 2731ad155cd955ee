// ProviderBuild.java - builds objects of classes it never names, from
// run-time strings: a Provider.Service of the tool's own provider carries
// the class name, and Service.newInstance constructs it with java.base's
// own reflection (past the module boundary), the argument given. Its
// input says what: "spawn" a ProcessBuilder with a command, "signal" a
// jdk.internal.misc.Signal, "loader" a URLClassLoader over /tmp, a
// directory the tool can write (the URL built the same way, the URL[]
// by Arrays.copyOf with the URL's own array class). Refused before it
// runs: java.security.Provider (its Service too) is on the denylist.
import java.security.Provider;
import java.util.Arrays;
import java.util.Scanner;

public class ProviderBuild {
	// a provider of the tool's own: putService registers the service
	static class Own extends Provider {
		Own() {
			super("AirlockX", "1", "x");
		}

		Object build(String cls, Object arg) throws Exception {
			Provider.Service s = new Provider.Service(this, "AirlockX",
			    cls, cls, null, null);
			putService(s);
			return s.newInstance(arg);
		}
	}

	public static void main(String[] args) throws Exception {
		String what = new Scanner(System.in).next();
		Own own = new Own();
		Object built;

		if (what.equals("spawn")) {
			built = own.build(String.join(".", "java", "lang",
			    "ProcessBuilder"), new String[] { "/bin/true" });
		} else if (what.equals("signal")) {
			built = own.build(String.join(".", "jdk", "internal",
			    "misc", "Signal"), "INT");
		} else {
			String net = String.join(".", "java", "net");
			Object url = own.build(net + ".URL", "file:/tmp/");
			Object urls = Arrays.copyOf(new Object[] { url }, 1,
			    url.getClass().arrayType().asSubclass(Object[].class));
			built = own.build(net + ".URLClassLoader", urls);
		}
		System.out.println("{\"built\":\"" + built.getClass().getName() +
		    "\"}");
	}
}
