# lib_prom.py - the Python that the exporter's and the fleet's tests share
# (imported by test_prometheus.sh's expo.py and test_fleet.sh's fl.py): a
# free port on 127.0.0.1, and Prometheus's query API. Not run itself: each
# test copies it beside its script in its temporary directory, where
# python3 -S finds it (and writes its bytecode there, not in the tree).
import json, random, socket, urllib.parse, urllib.request

def cmd_freeport():
    for _ in range(500):
        p = random.randint(20000, 40000)
        s = socket.socket()
        try:
            s.bind(('127.0.0.1', p))
            print(p)
            return 0
        except OSError:
            pass
        finally:
            s.close()
    return 1

def query(url, q):
    r = json.load(urllib.request.urlopen(
        url + '/api/v1/query?' + urllib.parse.urlencode({'query': q}), timeout=5))
    if r.get('status') != 'success':
        raise ValueError(json.dumps(r)[:300])
    return r['data']['result']

def cmd_promq(url, q):
    """The value of an instant query's one result."""
    try:
        res = query(url, q)
    except Exception as e:
        print('error %s' % e)
        return 1
    if len(res) != 1:
        print('%d results' % len(res))
        return 1
    print(res[0]['value'][1])
    return 0
