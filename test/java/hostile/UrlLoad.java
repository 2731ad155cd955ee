// UrlLoad.java - loads a class from a file: and a jar: URL the tool could
// have written itself (/tmp/x/, /tmp/x.jar). Refused before it runs:
// java.net is on the denylist.
import java.net.URL;
import java.net.URLClassLoader;

public class UrlLoad {
	public static void main(String[] args) throws Exception {
		URLClassLoader l = new URLClassLoader(new URL[] {
			new URL("file:/tmp/x/"), new URL("jar:file:/tmp/x.jar!/") });
		l.loadClass("Evil");
		System.out.println("{\"ran\":true}");
	}
}
