// ProviderSpawn.java - builds a ProcessBuilder by name: a Provider.Service
// whose class name is a run-time string, constructed by java.base's own
// reflection (Service.newInstance) with the command as its argument. The
// class never names ProcessBuilder. Refused before it runs:
// java.security.Provider (its Service too) is on the denylist.
import java.security.Provider;

public class ProviderSpawn {
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
		String name = String.join(".", "java", "lang", "ProcessBuilder");
		Object pb = new Own().build(name, new String[] { "/bin/true" });
		System.out.println("{\"built\":\"" + pb.getClass().getName() +
		    "\"}");
	}
}
