// ProviderLoader.java - a URLClassLoader over a directory the tool can
// write, made from run-time strings only: the URL and the loader are both
// built by Provider.Service.newInstance, the URL[] by Arrays.copyOf with the
// URL's own array class. Refused before it runs:
// java.security.Provider (its Service too) is on the denylist.
import java.security.Provider;
import java.util.Arrays;

public class ProviderLoader {
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
		String net = String.join("/", "java", "net");
		String pkg = net.replace('/', '.');
		Object url = new Own().build(pkg + ".URL", "file:/tmp/");
		Class<?> arr = url.getClass().arrayType();
		Object urls = Arrays.copyOf(new Object[] { url }, 1,
		    arr.asSubclass(Object[].class));
		Object loader = new Own().build(pkg + ".URLClassLoader", urls);
		System.out.println("{\"built\":\"" + loader.getClass().getName() +
		    "\"}");
	}
}
