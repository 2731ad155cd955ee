// Reflect.java - reaches ProcessBuilder by name through reflection, so no
// ProcessBuilder reference appears in the class file (denied: reflection).
public class Reflect {
	public static void main(String[] args) throws Exception {
		Class<?> c = Class.forName("java.lang." + "ProcessBuilder");
		Object pb = c.getConstructor(String[].class)
		    .newInstance((Object) new String[] { "sh", "-c", ": >/tmp/airlock-java-ran" });
		c.getMethod("start").invoke(pb);
		System.out.println("{\"ran\":true}");
	}
}
