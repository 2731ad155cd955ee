// ProviderSignal.java - builds a jdk.internal.misc.Signal from run-time
// strings through Provider.Service.newInstance: java.base's reflection
// reaches a package no module exports. Refused before it runs:
// java.security.Provider (its Service too) is on the denylist.
import java.security.Provider;

public class ProviderSignal {
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
		String name = String.join(".", "jdk", "internal", "misc", "Signal");
		Object sig = new Own().build(name, "INT");
		System.out.println("{\"built\":\"" + sig.getClass().getName() +
		    "\"}");
	}
}
